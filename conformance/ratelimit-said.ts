// What the rules-schedule probe's answers said in RateLimit header fields, every dialect of each answer read
// (src/client/ratelimit-fields.ts), and the words the RATELIMIT checks (ratelimit-fields.ts) say it in: each message
// names the dialect it read and only the fields that were sent.
import {
  type CheckContext,
  type Exchange,
  info,
  isSuccess,
  type ObservedRequest,
  type ProbeResult,
  type RateLimitReading,
  readRateLimitFields,
  retryAfterSeconds,
  skip,
} from '../src/runner/checks.ts';
import type { BucketId } from '../src/spec/index.ts';
import { bucketView, probe, timesOf } from './bucket-probe.ts';

export const BUCKET: BucketId = 'rules-schedule';
export const DRAFT = 'draft-ietf-httpapi-ratelimit-headers';

export interface Said {
  readonly observed: ObservedRequest;
  readonly exchange: Exchange;
  readonly reading: RateLimitReading;
}

export interface FieldsSaid {
  readonly result: ProbeResult;
  readonly log: readonly ObservedRequest[];
  /** Every reading of every answer of the bucket that carried RateLimit fields, in the order sent. */
  readonly said: readonly Said[];
  /** The limiter's answers: successes and 429s. */
  readonly answers: number;
  readonly at: (t: number) => string;
  readonly windowSeconds: number;
}

/**
 * The probe's answers and the fields they carried; INFO, ending the check, when none carried any (said in full by
 * RATELIMIT-FIELDS, `inFull`, and by reference everywhere else).
 */
export const fieldsSaid = async (ctx: CheckContext, inFull = false): Promise<FieldsSaid> => {
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
    return readRateLimitFields(exchange.headers).map((reading) => ({ observed, exchange, reading }));
  });
  if (said.length === 0) {
    info(
      inFull
        ? `none of the ${answered.length} successes and 429s of the ${BUCKET} probe carried RateLimit header fields (${DRAFT} in any draft, X-RateLimit-*): SPEC.md asks for none, so nothing is held to them`
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

export const named = ({ observed }: Said, at: (t: number) => string) =>
  `'${observed.label}' (${observed.status ?? 'no answer'}, answered ${at(observed.answered)})`;

/**
 * A field of the answer as its evidence keeps it: redacted and cut in one step (src/client/evidence.ts), so a
 * message shows no more of a value than a report's evidence does, and no start of a secret cut short.
 */
const quoted = ({ exchange }: Said, field: string): string =>
  exchange.evidence.response?.headers[field] ?? '(not kept in the evidence)';

/** The RateLimit fields one reading read, quoted. */
export const shown = (s: Said): string =>
  s.reading.fieldNames.map((field) => `${field}: ${quoted(s, field)}`).join('; ');

/** Each dialect's readings, in the order the dialects were first read. */
export const byDialect = (said: readonly Said[]): Said[][] => {
  const groups = new Map<string, Said[]>();
  for (const s of said) {
    const group = groups.get(s.reading.dialect);
    if (group === undefined) groups.set(s.reading.dialect, [s]);
    else group.push(s);
  }
  return [...groups.values()];
};

/** The names of the fields these readings read, as sent (lower case): what a message says was there. */
export const fieldNames = (said: readonly Said[]): string =>
  [...new Set(said.flatMap((s) => s.reading.fieldNames))].join(', ');

/** The dialects read, in words. */
export const readIn = (said: readonly Said[]): string =>
  [...new Set(said.map((s) => s.reading.says))].join(', and ');

/** What the readings left unread, once each, for a message to add. */
export const notRead = (said: readonly Said[]): string => {
  const whys = [
    ...new Set(said.flatMap((s) => (s.reading.unreadable === undefined ? [] : [s.reading.unreadable]))),
  ];
  return whys.length === 0 ? '' : `; not read: ${whys.join('; ')}`;
};

/** A named throttler's Retry-After on a 429, said as what it is: not §8 rule 2's (the LIMIT checks grade that). */
export const namedRetryAfters = (said: readonly Said[]): string => {
  const named = said.filter((s) => s.observed.status === 429 && s.reading.namedRetryAfter !== undefined);
  if (named.length === 0) return '';
  const field = named[0]!.reading.namedRetryAfter!;
  const plain = named.filter((s) => retryAfterSeconds(s.exchange) !== undefined).length;
  return `; ${named.length} 429s carried a named throttler's own wait, the first ${field}: ${quoted(named[0]!, field)}, which is not the Retry-After SPEC.md §8 rule 2 asks for (${plain} of them carried a plain Retry-After)`;
};
