// A limit fault whose detection hangs on a minute being long beside a second and a round trip, at real minutes on
// virtual time: fault-cells.ts.
import { faultsAtRealMinutes } from './fault-cells.ts';

faultsAtRealMinutes();
