// Every fault of the reference server under the anchored limiter, on virtual time: fault-cells.ts.
import { faultsUnder } from './fault-cells.ts';

faultsUnder('anchored');
