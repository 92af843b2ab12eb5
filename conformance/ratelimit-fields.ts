// Beyond SPEC.md: the RateLimit header fields a target may send (the IETF draft's RateLimit-Policy and RateLimit,
// the older RateLimit-* triple, X-RateLimit-*), held to what its limiter does. SPEC.md asks for none, so a target that
// sends none gets INFO saying so and nothing else; fields that contradict §8's limit or what the probe saw are a WARN.
// They read the rules-schedule probe: never side-effecting, always in the profile, and 120 requests a window.
import {
  type CheckContext,
  type CheckSpec,
  type Exchange,
  info,
  isAdmitted,
  isSuccess,
  type ObservedRequest,
  type ProbeResult,
  type QuotaPolicy,
  type RateLimitReading,
  rateLimitResetSeconds,
  readRateLimitFields,
  retryAfterHonour,
  retryAfterSeconds,
  retryToleranceMs,
  skip,
  warn,
} from '../src/runner/checks.ts';
import { type BucketId, cite, LIMIT_RULES, limitQuote } from '../src/spec/index.ts';
import { bucketView, probe, probeRequests, timesOf } from './bucket-probe.ts';

const BUCKET: BucketId = 'rules-schedule';
const DRAFT = 'draft-ietf-httpapi-ratelimit-headers';

interface Said {
  readonly observed: ObservedRequest;
  readonly exchange: Exchange;
  readonly reading: RateLimitReading;
}

interface FieldsSaid {
  readonly result: ProbeResult;
  readonly log: readonly ObservedRequest[];
  /** Every answer of the bucket that carried RateLimit fields, in the order sent, read in its first dialect. */
  readonly said: readonly Said[];
  /** The limiter's answers: successes and 429s. */
  readonly answers: number;
  readonly at: (t: number) => string;
  readonly windowSeconds: number;
}

/** What a RateLimit field reads (`t`, `r`) of an answer, in its first dialect. */
const readingOf = (exchange: Exchange): RateLimitReading | undefined =>
  readRateLimitFields(exchange.headers)[0];

/**
 * The probe's answers and the fields they carried; INFO, ending the check, when none carried any (said in full by
 * RATELIMIT-FIELDS, `inFull`, and by reference everywhere else).
 */
const fieldsSaid = async (ctx: CheckContext, inFull = false): Promise<FieldsSaid> => {
  const result = await probe(ctx, BUCKET);
  const log = bucketView(ctx, BUCKET, result);
  // The limiter's own answers only: a gateway answering 400 or 500 to everything shows nothing of the limiter.
  const answered = log
    .filter((o) => o.request.exchange !== undefined && (isSuccess(o.status) || o.status === 429))
    .sort((a, b) => a.sent - b.sent);
  if (answered.length === 0) {
    skip(
      `none of the ${log.length} answers to the ${BUCKET} probe was a success or a 429: no answer of the limiter to read RateLimit fields from`,
    );
  }
  const said = answered.flatMap((observed): Said[] => {
    const exchange = observed.request.exchange!;
    const reading = readingOf(exchange);
    return reading === undefined ? [] : [{ observed, exchange, reading }];
  });
  if (said.length === 0) {
    info(
      inFull
        ? `none of the ${answered.length} successes and 429s of the ${BUCKET} probe carried RateLimit header fields (${DRAFT}, RateLimit-*, X-RateLimit-*): SPEC.md asks for none, so nothing is held to them`
        : 'no RateLimit header fields to hold to the limit (see RATELIMIT-FIELDS): SPEC.md asks for none',
    );
  }
  return {
    result,
    log,
    said,
    answers: answered.length,
    at: timesOf(result),
    windowSeconds: Math.ceil(result.limit.windowMs / 1000),
  };
};

const named = ({ observed }: Said, at: (t: number) => string) =>
  `'${observed.label}' (${observed.status ?? 'no answer'}, answered ${at(observed.answered)})`;

const shown = (fields: Readonly<Record<string, string>>): string =>
  Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}`)
    .join('; ');

const fieldsSent = async (ctx: CheckContext): Promise<string> => {
  const { said, answers } = await fieldsSaid(ctx, true);
  const [first] = said;
  ctx.record(first!.exchange);
  const dialects = [...new Set(said.map((s) => s.reading.says))];
  const unreadable = said.find((s) => s.reading.unreadable !== undefined);
  return info(
    `${said.length} of the ${answers} successes and 429s carried ${dialects.join(', and ')}; the first: ${shown(first!.reading.fields)}${unreadable ? `; not read: ${unreadable.reading.unreadable}` : ''}`,
  );
};

const policyText = (p: QuotaPolicy) =>
  `${p.name === undefined ? '' : `"${p.name}" `}q=${p.quota}${p.windowSeconds === undefined ? '' : `;w=${p.windowSeconds}`}`;

// "| GET /api/rules/schedule | 120 requests / minute |": a declared quota policy must be that limit.
const policyAgrees = async (ctx: CheckContext): Promise<string> => {
  const { result, said, at, windowSeconds } = await fieldsSaid(ctx);
  const { count } = result.limit;
  const declaring = said.filter((s) => s.reading.policies.length > 0);
  if (declaring.length === 0) return info('the fields declare no quota policy (q, or a Limit field)');
  for (const s of declaring) {
    const wrong = s.reading.policies.find(
      (p) => p.quota !== count || (p.windowSeconds !== undefined && p.windowSeconds !== windowSeconds),
    );
    if (wrong !== undefined) {
      ctx.record(s.exchange);
      return warn(
        `the answer to ${named(s, at)} declares ${policyText(wrong)}, but SPEC.md §8 limits ${BUCKET} to ${count} per ${windowSeconds} s (q=${count};w=${windowSeconds})`,
      );
    }
  }
  const windowed = declaring.every((s) => s.reading.policies.every((p) => p.windowSeconds !== undefined));
  return `${declaring.length} answers declare q=${count}${windowed ? `;w=${windowSeconds}` : ' (no window)'}, SPEC.md §8's ${count} per ${windowSeconds} s`;
};

/** Admitted answers of one burst it takes to see a count go down. */
const COUNTDOWN_MIN = 4;

// A remaining count must go down as admitted requests spend the quota, and be 0 on a refusal.
const remainingCountsDown = async (ctx: CheckContext): Promise<string> => {
  const { result, said, at } = await fieldsSaid(ctx);
  const counted = said.filter((s) => s.reading.remaining !== undefined);
  if (counted.length === 0) return info('the fields carry no remaining count (r, or a Remaining field)');
  const refusals = counted.filter((s) => s.observed.status === 429);
  const roomy = refusals.find((s) => s.reading.remaining! > 0);
  if (roomy !== undefined) {
    ctx.record(roomy.exchange);
    return warn(
      `the 429 to ${named(roomy, at)} says ${roomy.reading.remaining} remain (${shown(roomy.reading.fields)}): a refused request means none does`,
    );
  }
  const spend = new Set(result.spend.requests);
  const burst = counted.filter((s) => spend.has(s.observed.request) && isAdmitted(s.observed));
  if (burst.length < COUNTDOWN_MIN) {
    return info(
      `only ${burst.length} admitted answers of the spend burst carried a remaining count: too few to see it count down`,
    );
  }
  const { count, windowMs } = result.limit;
  const span =
    Math.max(...burst.map((s) => s.observed.answered)) - Math.min(...burst.map((s) => s.observed.sent));
  if (span >= windowMs) {
    return info(
      `the spend burst took ${Math.round(span)} ms, a window or more: what can remain after it cannot be bounded`,
    );
  }
  // What can remain after the burst, whatever the limiter: at least half of it was admitted in one window (an edge
  // may split a fixed window's burst in two), other traffic only spends more, and a token bucket refills `back`
  // units within the burst's span (one more for rounding). A sliding log keeps all of it: the span is under a window.
  const back = Math.ceil((span * count) / windowMs) + 1;
  const most = count - Math.ceil(burst.length / 2) + back;
  const values = burst.map((s) => s.reading.remaining!);
  const least = Math.min(...values);
  if (least > most) {
    const first = burst.find((s) => s.reading.remaining === least)!;
    ctx.record(first.exchange);
    return warn(
      `the ${burst.length} admitted answers of the spend burst (sent and answered within ${Math.round(span)} ms) all say at least ${least} remain (the first: ${named(first, at)}): with ${burst.length} admitted within one ${windowMs} ms window, at least ${Math.ceil(burst.length / 2)} in one fixed window if an edge split them, and ${back} refilled meanwhile, at most ${most} can remain of ${count}`,
    );
  }
  return `the remaining count went from ${Math.max(...values)} to ${least} over the ${burst.length} admitted answers of the spend burst (at most ${most} could remain)${refusals.length > 0 ? `, and all ${refusals.length} 429s said 0` : ''}`;
};

// A reset time must fall within a window, and a request sent once it has passed must find the quota back.
const resetAgrees = async (ctx: CheckContext): Promise<string> => {
  const { result, log, said, at, windowSeconds } = await fieldsSaid(ctx);
  const timed = said.filter((s) => s.reading.resetSeconds !== undefined);
  if (timed.length === 0) return info('the fields carry no reset time (t, or a Reset field)');
  // Whole seconds rounded up, and one for the server's clock.
  const beyond = timed.find((s) => s.reading.resetSeconds! > windowSeconds + 1);
  if (beyond !== undefined) {
    ctx.record(beyond.exchange);
    return warn(
      `the answer to ${named(beyond, at)} says the quota resets in ${beyond.reading.resetSeconds} s, but ${BUCKET}'s window is ${windowSeconds} s: a quota comes back within a window of its spending`,
    );
  }
  const { limit } = result;
  const honour = retryAfterHonour(log, limit, rateLimitResetSeconds);
  const after = (from: ObservedRequest, t: number) =>
    `${Math.round(t - from.answered)} ms after the 429 to '${from.label}' arrived`;
  if (honour.broken !== undefined) {
    const { refusal, retry, seconds } = honour.broken;
    ctx.record(refusal.request.exchange!);
    ctx.record(retry.request.exchange!);
    return warn(
      `'${retry.label}', sent ${after(refusal, retry.sent)}, past the reset of ${seconds} s it said plus ${retryToleranceMs(limit)} ms tolerance, still got 429, and no request in between can have taken the room`,
    );
  }
  const within = `every reset time is within the ${windowSeconds} s window`;
  // A reset time of 0 s on a 429 promises no wait at all: its passing shows nothing of one too short.
  if (honour.honoured !== undefined && honour.honoured.seconds > 0) {
    const { refusal, retry, seconds } = honour.honoured;
    return `${within}, and '${retry.label}', sent ${after(refusal, retry.sent)} (its reset: ${seconds} s), was admitted`;
  }
  // The quota came back before any reset time had passed: an edge poll was admitted, as the reset time allows.
  const refusal = result.firstRefusal;
  const back = result.polls.find((r) => isSuccess(r.status));
  const promised = refusal?.exchange === undefined ? undefined : rateLimitResetSeconds(refusal.exchange);
  if (refusal !== undefined && back !== undefined && promised !== undefined && promised > 0) {
    if (back.sent - refusal.answered <= promised * 1000 + retryToleranceMs(limit)) {
      return `${within}, and the quota was back before the ${promised} s the first 429 said: '${back.label}', sent ${Math.round(back.sent - refusal.answered)} ms after it arrived, was admitted`;
    }
  }
  const why =
    honour.undecided !== undefined
      ? `'${honour.undecided.retry.label}', sent after a reset time had passed, got 429, but another request may have taken the room`
      : honour.honoured !== undefined
        ? `the only reset times a request was sent just after were 0 s ('${honour.honoured.refusal.label}'), which promise no wait to test`
        : honour.late !== undefined
          ? `'${honour.late.retry.label}' was admitted, but sent too long after the reset time for an early one to show`
          : "no request went out just after a 429's reset time had passed";
  return info(`${within}, but ${why}: that the quota is back by then is not verified`);
};

// §8 rule 2's Retry-After, beside the draft's reset time: Retry-After takes precedence and should not point earlier.
const retryAfterNotBeforeReset = async (ctx: CheckContext): Promise<string> => {
  const { said, at } = await fieldsSaid(ctx);
  const both = said.filter(
    (s) =>
      s.observed.status === 429 &&
      s.reading.resetSeconds !== undefined &&
      retryAfterSeconds(s.exchange) !== undefined,
  );
  if (both.length === 0) return info('no 429 carried both an integer Retry-After and a reset time');
  const early = both.find((s) => retryAfterSeconds(s.exchange)! < s.reading.resetSeconds!);
  if (early !== undefined) {
    ctx.record(early.exchange);
    return warn(
      `the 429 to ${named(early, at)} says Retry-After ${retryAfterSeconds(early.exchange)} s but a reset in ${early.reading.resetSeconds} s (${shown(early.reading.fields)}): ${DRAFT} gives Retry-After precedence, and it should not point earlier than the reset`,
    );
  }
  return `on all ${both.length} 429s that carried both, Retry-After is no earlier than the reset time`;
};

export const rateLimitFieldChecks = (): CheckSpec[] => {
  const common = {
    tags: ['limits', 'ratelimit'],
    lane: BUCKET,
    required: false,
    // It sends nothing of its own: it reads the rules-schedule probe, planned here so it runs without the limit checks.
    plan: (target: Parameters<typeof probeRequests>[0]) => probeRequests(target, BUCKET),
    ...cite(limitQuote(BUCKET)),
  };
  return [
    {
      ...common,
      id: 'RATELIMIT-FIELDS',
      failsWith: [],
      title: 'Which RateLimit header fields the target sends, in which dialect',
      run: fieldsSent,
    },
    {
      ...common,
      id: 'RATELIMIT-POLICY',
      failsWith: ['WARN'],
      title: 'A declared RateLimit quota policy is the limit SPEC.md §8 states',
      run: policyAgrees,
    },
    {
      ...common,
      id: 'RATELIMIT-REMAINING',
      failsWith: ['WARN'],
      title:
        'The RateLimit remaining count goes down as admitted requests spend the quota, and is 0 on a 429',
      run: remainingCountsDown,
    },
    {
      ...common,
      id: 'RATELIMIT-RESET',
      failsWith: ['WARN'],
      title: 'The RateLimit reset time is within the window, and the quota is back once it has passed',
      run: resetAgrees,
    },
    {
      ...common,
      ...cite(LIMIT_RULES.overLimit),
      id: 'RATELIMIT-RETRY-AFTER',
      failsWith: ['WARN'],
      title: "A 429's Retry-After points no earlier than its RateLimit reset time",
      run: retryAfterNotBeforeReset,
    },
  ];
};
