// This runner's clock against the target's, from the Date header of every answer (core/clocks.ts). Each VU keeps
// its own tightest bounds and records only an improvement, so the Gauges take a handful of samples, not one a request.
import { answerBounds } from '../../core/clocks.ts';
import { clockHigh, clockLow } from './metrics.ts';

// RFC 9110 §5.6.7's IMF-fixdate: anything else (say, a local time without zone) would parse to a wrong instant.
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

let low = -Infinity;
let high = Infinity;
let lastDate = '';
let lastDateMs = Number.NaN;

/** One answer's bounds; an answer from a cache (an Age header) carries the Date of an earlier one, so none. */
export const readClock = (headers: Record<string, string>, sentMs: number, answeredMs: number): void => {
  const date = headers.Date;
  if (date === undefined || headers.Age !== undefined) return;
  if (date !== lastDate) {
    lastDate = date;
    lastDateMs = IMF_FIXDATE.test(date) ? Date.parse(date) : Number.NaN;
  }
  if (Number.isNaN(lastDateMs)) return;
  const bounds = answerBounds(lastDateMs, sentMs, answeredMs);
  if (bounds.lo > low) {
    low = bounds.lo;
    clockLow.add(low);
  }
  if (bounds.hi < high) {
    high = bounds.hi;
    clockHigh.add(high);
  }
};
