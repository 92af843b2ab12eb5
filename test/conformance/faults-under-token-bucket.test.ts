// Every fault of the reference server under the token-bucket limiter, on virtual time: fault-cells.ts.
import { faultsUnder } from './fault-cells.ts';

faultsUnder('token-bucket');
