// The faults that break SPEC.md §8 (limits, Retry-After) and the ids of §4, as entries of faults.ts's table: each
// names the clause it breaks, says how in one line, and gives the points of behaviour (behaviour.ts) it changes.
import { BUCKETS } from '../spec/index.ts';
import { type FaultEntry, honestRetryAfter } from './behaviour.ts';
import {
  blocking,
  earlyReset,
  failOpenSlice,
  firstWindowLow,
  halvedRetryAfter,
  penaltyBox,
  racyCounter,
} from './limit-faults.ts';
import { createLimitState, SlidingLog } from './limiter-kinds.ts';

/** Where limit-fail-open-slice's slice begins, as a fraction of each window. */
const FAIL_OPEN_FROM = 0.22;
/** How long after its check limit-racy-counter counts an admit: a round trip to a store in the same rack. */
const RACY_LAG_MS = 2;

export const LIMIT_FAULTS = [
  {
    name: 'retry-after-missing',
    clause: '§8 rule 2',
    rule: '429 responses carry no Retry-After header',
    breaks: { retryAfter: () => undefined },
  },
  {
    name: 'retry-after-http-date',
    clause: '§8 rule 2',
    rule: 'Retry-After is an HTTP-date instead of integer seconds',
    breaks: { retryAfter: (ms, now) => new Date(now + ms).toUTCString() },
  },
  {
    name: 'retry-after-fractional',
    clause: '§8 rule 2',
    rule: 'Retry-After is fractional seconds (e.g. "1.5") instead of an integer',
    breaks: {
      // Rounded up to a tenth, and never whole, so the value stays honest yet is never an integer.
      retryAfter: (ms) => {
        const seconds = Math.ceil(ms / 100) / 10;
        return (Number.isInteger(seconds) ? seconds + 0.5 : seconds).toFixed(1);
      },
    },
  },
  {
    name: 'retry-after-too-short',
    clause: '§7',
    rule: 'Retry-After says at most half the real wait, so a retry that honours it is refused again',
    breaks: { retryAfter: halvedRetryAfter },
  },
  {
    name: 'retry-after-rounded-down',
    clause: '§7',
    rule: 'Retry-After is the wait in whole seconds rounded down (never 0), up to a second short of when capacity returns',
    breaks: { retryAfter: (ms) => String(Math.max(1, Math.floor(ms / 1000))) },
  },
  {
    name: 'retry-after-too-long',
    clause: '§7',
    rule: 'Retry-After always says 3600, longer than any window, though capacity returns when the window ends',
    breaks: {
      // An hour, as a server might say whatever the window: honest (waiting that long reaches capacity), but useless.
      retryAfter: () => '3600',
    },
  },
  {
    name: 'limited-as-503',
    clause: '§8 rule 2',
    rule: 'a request over the limit gets 503 instead of 429',
    breaks: { limitedStatus: 503 },
  },
  {
    name: 'limited-503-one-in-ten',
    clause: '§8 rule 2',
    rule: 'one refusal in ten of each limit is answered 503 (with an honest Retry-After) instead of 429',
    breaks: { otherRefusal: { nth: (n) => n % 10 === 0, retryAfter: true } },
  },
  {
    name: 'limited-503-once-bare',
    clause: '§8 rule 2',
    rule: "each limit's second refusal is answered 503 without Retry-After instead of 429, as a backend's error would be",
    breaks: { otherRefusal: { nth: (n) => n === 2, retryAfter: false } },
  },
  {
    name: 'limit-per-client',
    clause: '§8 rule 1',
    rule: 'limits are kept per client instead of per tenant, so two clients of one tenant get twice the limit',
    breaks: { ownerOf: (client) => `client:${client.client_id}` },
  },
  {
    name: 'limit-shared-across-tenants',
    clause: '§8 rule 1',
    rule: 'limits are kept per endpoint only, so one tenant uses up the limit of every other tenant',
    breaks: { ownerOf: () => '' },
  },
  {
    name: 'observability-separate-buckets',
    clause: '§8 table',
    rule: 'each Observability endpoint has its own 100/min limit instead of one shared limit',
    breaks: { splitsObservability: true },
  },
  {
    name: 'limit-blocks-tenant',
    clause: '§8 rule 1',
    rule: "once a tenant is over one endpoint's limit, every endpoint refuses it (429) until that limit admits again",
    breaks: { keptState: blocking },
  },
  {
    name: 'limit-per-path-id',
    clause: '§8 rule 1',
    rule: 'endpoints with a path id keep one limit per id value instead of one per endpoint',
    breaks: { limitPerPathId: true },
  },
  {
    name: 'wrong-limit-execute',
    clause: '§8 table',
    rule: 'POST /api/rules/execute admits a third more than its limit (40/min instead of 30)',
    breaks: {
      enforcedCount: (bucket, count) => (bucket === 'rules-execute' ? Math.ceil((count * 4) / 3) : count),
    },
  },
  {
    name: 'wrong-limit-transaction',
    clause: '§8 table',
    rule: 'POST /event/transaction/v3 admits 90% of its limit (450/s instead of 500)',
    breaks: {
      enforcedCount: (bucket, count) => (bucket === 'transaction-event' ? Math.floor(count * 0.9) : count),
    },
  },
  {
    name: 'no-limit-schedule',
    clause: '§8 table',
    rule: 'GET /api/rules/schedule is never limited',
    breaks: {
      enforcedCount: (bucket, count) => (bucket === 'rules-schedule' ? Number.POSITIVE_INFINITY : count),
    },
  },
  {
    name: 'limit-penalty-box',
    clause: '§8 table',
    rule: 'GET /api/rules/schedule refuses for four windows after a refusal (Retry-After says so), so a client waiting for capacity is refused long past the window',
    breaks: { keptState: (kept) => (kept.bucket === 'rules-schedule' ? penaltyBox(kept) : kept.state) },
  },
  {
    name: 'limit-window-long',
    clause: '§8 table',
    rule: "every per-minute limit's window is longer than stated (by default 1.25 of it: 75 s for a minute), with an honest Retry-After for that window",
    factor: { scales: 'the window, as a fraction of the stated one', default: 1.25 },
    breaks: {
      limitState: ({ bucket, kind, count, windowMs, factor }) =>
        BUCKETS[bucket].limit.per === 'minute'
          ? createLimitState(kind, count, windowMs * factor!)
          : undefined,
    },
  },
  {
    name: 'limit-fail-open-slice',
    clause: '§8 table',
    rule: 'every limit admits everything, uncounted, in a slice of each of its windows from 0.22 of it (by default to 0.27: a store that fails open in a periodic hiccup)',
    factor: { scales: 'the slice, as a fraction of the window', default: 0.05 },
    breaks: {
      limitState: ({ kind, count, windowMs, factor }) =>
        failOpenSlice(createLimitState(kind, count, windowMs), windowMs, kind, [
          FAIL_OPEN_FROM,
          FAIL_OPEN_FROM + factor!,
        ]),
    },
  },
  {
    name: 'limit-racy-counter',
    clause: '§8 table',
    rule: `every limit checks its count before the admits of the last ${RACY_LAG_MS} ms are in it (a counter read, then written a store round trip later), so a burst that reaches the limit is admitted past it`,
    breaks: {
      limitState: ({ kind, count, windowMs }) =>
        racyCounter(createLimitState(kind, count, windowMs), RACY_LAG_MS),
    },
  },
  {
    name: 'limit-window-short',
    clause: '§8 table',
    rule: "every limit's window is shorter than stated (by default 0.75 of it: 45 s for a minute), with an honest Retry-After for that window",
    factor: { scales: 'the window, as a fraction of the stated one', default: 0.75 },
    breaks: {
      limitState: ({ kind, count, windowMs, factor }) => createLimitState(kind, count, windowMs * factor!),
    },
  },
  {
    name: 'limit-early-reset',
    clause: '§8 table',
    rule: 'every limit resets every sixth of its window (six times the limit per window), while each 429 carries the Retry-After a faithful window would give',
    factor: { scales: 'how often the limit resets, as a fraction of the window', default: 1 / 6 },
    breaks: {
      limitState: ({ kind, count, windowMs, factor }) =>
        earlyReset(createLimitState(kind, count, windowMs * factor!), windowMs, kind),
    },
  },
  {
    name: 'observability-split',
    clause: '§8 table',
    rule: 'each Observability endpoint has a limit of its own, a share of the stated one (25/min each for four: they add up to 100)',
    breaks: {
      splitsObservability: true,
      enforcedCount: (bucket, count, parts) =>
        bucket === 'observability' ? Math.ceil(count / parts) : count,
    },
  },
  {
    name: 'limit-first-window-low',
    clause: '§8 table',
    rule: "POST /api/transactions/batch/generate-upload-url admits half its limit in each tenant's first window (Retry-After honest); every later window is faithful",
    factor: { scales: "the share of the limit the tenant's first window admits", default: 0.5 },
    breaks: {
      // One bucket only: every other fault's exact-limit check stays untouched.
      limitState: ({ bucket, kind, count, windowMs, factor }) =>
        bucket === 'batch-upload-url'
          ? firstWindowLow(createLimitState(kind, count, windowMs), Math.floor(count * factor!), windowMs)
          : undefined,
    },
  },
  {
    name: 'limit-counts-refused',
    clause: '§8 table',
    rule: 'refused requests count toward the limit (a log of every request, refused or not), so a client that retries while refused stays refused with fewer than the limit admitted',
    breaks: { limitState: ({ count, windowMs }) => new SlidingLog(count, windowMs, true) },
  },
  {
    name: 'retry-after-short-late',
    clause: '§7',
    rule: 'Retry-After is honest except in the last sixth of the wait a window can give, where it says at most half the real wait',
    breaks: {
      // Only where a window has a sixth or less left: a client whose 429s come early in the window never sees it.
      retryAfter: (ms, _now, windowMs) => (ms <= windowMs / 6 ? halvedRetryAfter(ms) : honestRetryAfter(ms)),
    },
  },
  {
    name: 'limit-queues',
    clause: '§8 rule 2',
    rule: 'a request to GET /api/rules/status/{execution_id} over the limit is held until the limit has room again and then served, never answered 429 (a queueing gateway)',
    breaks: { queues: 'rules-status' },
  },
  {
    name: 'issued-ids-unknown',
    clause: '§4',
    rule: 'the batch status, validation-result and rule status endpoints answer 404 even for ids the server issued',
    breaks: { knowsIssuedIds: false },
  },
] as const satisfies readonly FaultEntry[];
