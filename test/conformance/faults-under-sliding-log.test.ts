// Every fault of the reference server under the sliding-log limiter, on virtual time: fault-cells.ts.
import { faultsUnder } from './fault-cells.ts';

faultsUnder('sliding-log');
