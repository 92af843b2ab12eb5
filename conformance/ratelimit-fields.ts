// Beyond SPEC.md: the RateLimit header fields a target may send, in every dialect the libraries people use send
// (core/ratelimit-dialects.ts), held to what its limiter does; each check reads every dialect an answer carries, and
// its message names the dialect it read and the fields that were sent. SPEC.md asks for none, so a target that
// sends none gets INFO saying so and nothing else; fields that contradict §8's limit or what the probe saw are a WARN.
// They read the rules-schedule probe: never side-effecting, always in the profile, and 120 requests a window.
import {
  type CheckContext,
  type CheckSpec,
  info,
  isAdmitted,
  isSuccess,
  type ObservedRequest,
  type ProbeResult,
  type QuotaPolicy,
  rateLimitResetSeconds,
  retryAfterHonour,
  retryAfterSeconds,
  retryToleranceMs,
  warn,
} from '../src/runner/checks.ts';
import { cite, LIMIT_RULES, limitQuote } from '../src/spec/index.ts';
import { probeRequests } from './bucket-probe.ts';
import {
  BUCKET,
  byDialect,
  DRAFT,
  fieldNames,
  fieldsSaid,
  named,
  namedRetryAfters,
  notRead,
  readIn,
  type Said,
  shown,
} from './ratelimit-said.ts';

const fieldsSent = async (ctx: CheckContext): Promise<string> => {
  const { said, answers } = await fieldsSaid(ctx, true);
  ctx.record(said[0]!.exchange);
  const carrying = new Set(said.map((s) => s.observed)).size;
  const firsts = byDialect(said).map((group) => `${group[0]!.reading.says}, the first: ${shown(group[0]!)}`);
  return info(
    `${carrying} of the ${answers} successes and 429s carried RateLimit fields, read as ${firsts.join('; and ')}${namedRetryAfters(said)}${notRead(said)}`,
  );
};

const policyText = (p: QuotaPolicy) =>
  `${p.name === undefined ? '' : `"${p.name}" `}q=${p.quota}${p.windowSeconds === undefined ? '' : `;w=${p.windowSeconds}`}`;

// "| GET /api/rules/schedule | 120 requests / minute |": a declared quota policy must be that limit.
const policyAgrees = async (ctx: CheckContext): Promise<string> => {
  const { result, said, at, windowSeconds } = await fieldsSaid(ctx);
  const { count } = result.limit;
  const declaring = said.filter((s) => s.reading.policies.length > 0);
  if (declaring.length === 0) {
    return info(
      `none of the fields sent (${fieldNames(said)}, read as ${readIn(said)}) states a quota${notRead(said)}`,
    );
  }
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
  const answers = new Set(declaring.map((s) => s.observed)).size;
  return `${answers} answers declare q=${count}${windowed ? `;w=${windowSeconds}` : ' (no window)'} in ${readIn(declaring)}, SPEC.md §8's ${count} per ${windowSeconds} s${notRead(declaring)}`;
};

/** Admitted answers of one burst it takes to see a count go down. */
const COUNTDOWN_MIN = 4;

// A remaining count must go down as admitted requests spend the quota, and be 0 on a refusal: in each dialect read,
// as each states its own count.
const remainingCountsDown = async (ctx: CheckContext): Promise<string> => {
  const { result, said, at } = await fieldsSaid(ctx);
  const counted = said.filter((s) => s.reading.remaining !== undefined);
  if (counted.length === 0) {
    return info(
      `none of the fields sent (${fieldNames(said)}, read as ${readIn(said)}) carries a remaining count${notRead(said)}`,
    );
  }
  const refusals = counted.filter((s) => s.observed.status === 429);
  const roomy = refusals.find((s) => s.reading.remaining! > 0);
  if (roomy !== undefined) {
    ctx.record(roomy.exchange);
    return warn(
      `the 429 to ${named(roomy, at)} says ${roomy.reading.remaining} remain (${roomy.reading.says}: ${shown(roomy)}): a refused request means none does`,
    );
  }
  const spend = new Set(result.spend.requests);
  const found = byDialect(counted).map((group) =>
    countdown(
      ctx,
      result,
      group.filter((s) => spend.has(s.observed.request) && isAdmitted(s.observed)),
      at,
    ),
  );
  const zero = refusals.length > 0 ? `, and all ${refusals.length} 429s said 0` : '';
  const shownAll = found.map((f) => f.message).join('; ');
  return found.some((f) => f.verified) ? `${shownAll}${zero}` : info(shownAll);
};

/** One dialect's count over the admitted answers of the spend burst: WARN where it stays too high. */
const countdown = (
  ctx: CheckContext,
  result: ProbeResult,
  burst: readonly Said[],
  at: (t: number) => string,
): { verified: boolean; message: string } => {
  const says = burst[0]?.reading.says;
  if (says === undefined || burst.length < COUNTDOWN_MIN) {
    return {
      verified: false,
      message: `only ${burst.length} admitted answers of the spend burst carried a remaining count${says === undefined ? '' : ` in ${says}`}: too few to see it count down`,
    };
  }
  const { count, windowMs } = result.limit;
  const span =
    Math.max(...burst.map((s) => s.observed.answered)) - Math.min(...burst.map((s) => s.observed.sent));
  if (span >= windowMs) {
    return {
      verified: false,
      message: `the spend burst took ${Math.round(span)} ms, a window or more: what can remain after it cannot be bounded`,
    };
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
      `the ${burst.length} admitted answers of the spend burst (sent and answered within ${Math.round(span)} ms) all say at least ${least} remain in ${says} (the first: ${named(first, at)}): with ${burst.length} admitted within one ${windowMs} ms window, at least ${Math.ceil(burst.length / 2)} in one fixed window if an edge split them, and ${back} refilled meanwhile, at most ${most} can remain of ${count}`,
    );
  }
  return {
    verified: true,
    message: `in ${says}, the remaining count went from ${Math.max(...values)} to ${least} over the ${burst.length} admitted answers of the spend burst (at most ${most} could remain)`,
  };
};

// A reset time must fall within a window, and a request sent once it has passed must find the quota back.
const resetAgrees = async (ctx: CheckContext): Promise<string> => {
  const { result, log, said, at, windowSeconds } = await fieldsSaid(ctx);
  const timed = said.filter((s) => s.reading.resetSeconds !== undefined);
  if (timed.length === 0) {
    return info(
      `none of the fields sent (${fieldNames(said)}, read as ${readIn(said)}) carries a reset time${namedRetryAfters(said)}${notRead(said)}`,
    );
  }
  // Whole seconds rounded up, and one for the server's clock.
  const beyond = timed.find((s) => s.reading.resetSeconds! > windowSeconds + 1);
  if (beyond !== undefined) {
    ctx.record(beyond.exchange);
    return warn(
      `the answer to ${named(beyond, at)} says the quota resets in ${beyond.reading.resetSeconds} s (${beyond.reading.says}: ${shown(beyond)}), but ${BUCKET}'s window is ${windowSeconds} s: a quota comes back within a window of its spending`,
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
  const within = `every reset time (${readIn(timed)}) is within the ${windowSeconds} s window`;
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
          : timed.some((s) => s.observed.status === 429)
            ? "no request went out just after a 429's reset time had passed"
            : 'no 429 carried a reset time';
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
  if (both.length === 0) {
    return info(`no 429 carried both an integer Retry-After and a reset time${namedRetryAfters(said)}`);
  }
  const early = both.find((s) => retryAfterSeconds(s.exchange)! < s.reading.resetSeconds!);
  if (early !== undefined) {
    ctx.record(early.exchange);
    return warn(
      `the 429 to ${named(early, at)} says Retry-After ${retryAfterSeconds(early.exchange)} s but a reset in ${early.reading.resetSeconds} s (${shown(early)}): ${DRAFT} gives Retry-After precedence, and it should not point earlier than the reset`,
    );
  }
  return `on all ${new Set(both.map((s) => s.observed)).size} 429s that carried both, Retry-After is no earlier than the reset time (${readIn(both)})`;
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
