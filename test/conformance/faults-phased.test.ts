// The limit faults wherever an aligned window stands at the start, on virtual time: fault-cells.ts.
import { faultsFromEveryTenth } from './fault-cells.ts';

faultsFromEveryTenth();
