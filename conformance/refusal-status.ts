// §8 rule 2 asks for 429 on every request over the limit, not on most of them: a limiter that answers one refusal in
// ten with 503 (or another 4xx) still refuses, in a status a client does not read as "wait and retry". An answer of
// another status counts as the limiter's only where it stands in for a 429: past the limit (at least N of ours
// admitted in the window around it) in traffic that drew 429s too. It is the limiter's for sure when it carries a
// Retry-After, or when it came more than once; a lone one without may be a backend's error, and is named (WARN).

import type { LimitWindow } from '../src/runner/checks.ts';
import { isAdmitted, isSuccess, type ObservedRequest } from '../src/runner/checks.ts';

/**
 * The traffic a request belongs to: its burst, with its repeats (`fresh, again`), or the probe's polls, which go one
 * at a time (labels are `<name> #<n>`, see probe-steps.ts and probe-edge.ts).
 */
const trafficOf = (o: ObservedRequest): string => {
  const name = o.label.replace(/ #\d+$/, '').replace(/,.*$/, '');
  return name.includes('poll') ? 'polls' : name;
};

/** An answer neither admitted, nor 429, nor one about the token (AUTH-* grade those), nor none at all. */
const otherStatus = (o: ObservedRequest): boolean =>
  o.ours && o.status !== undefined && !isSuccess(o.status) && ![401, 403, 429].includes(o.status);

export interface OtherRefusals {
  /** Answers standing in for a 429, in the order sent. */
  readonly answers: readonly ObservedRequest[];
  /** How many of them carry a Retry-After. */
  readonly withRetryAfter: number;
  /** How many 429s the same traffic drew. */
  readonly refusals: number;
  /** The evidence makes them the limiter's: a Retry-After, or the pattern drawn again. */
  readonly limiters: boolean;
}

/** Answers of another status where the limit was crossed, among 429s for the same traffic; undefined for none. */
export const otherRefusals = (
  log: readonly ObservedRequest[],
  limit: LimitWindow,
): OtherRefusals | undefined => {
  const admitted = log.filter(isAdmitted);
  const refusedTraffic = new Set(log.filter((o) => o.status === 429).map(trafficOf));
  // Past the limit: N of ours admitted that the server may have handled in the window before this one.
  const pastLimit = (o: ObservedRequest) =>
    admitted.filter((a) => a.sent < o.answered && a.answered > o.sent - limit.windowMs).length >= limit.count;
  const answers = log
    .filter((o) => otherStatus(o) && refusedTraffic.has(trafficOf(o)) && pastLimit(o))
    .sort((a, b) => a.sent - b.sent);
  if (answers.length === 0) return undefined;
  const withRetryAfter = answers.filter(
    (o) => o.request.exchange?.headers['retry-after'] !== undefined,
  ).length;
  const traffic = new Set(answers.map(trafficOf));
  const refusals = log.filter((o) => o.status === 429 && traffic.has(trafficOf(o))).length;
  return { answers, withRetryAfter, refusals, limiters: withRetryAfter > 0 || answers.length > 1 };
};

/** The statuses of `answers`, counted in the order first seen: `3× 503, 1× no answer`. */
export const countedStatuses = (answers: readonly { readonly status?: number | undefined }[]): string => {
  const counts = new Map<number | undefined, number>();
  for (const o of answers) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n}× ${status ?? 'no answer'}`).join(', ');
};
