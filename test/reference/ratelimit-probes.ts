// The probes of the RateLimit faults (probes.ts has the others): each holds when the server sends no RateLimit
// fields, as SPEC.md asks for none, and otherwise when the fields say what the limiter does.
import { type RateLimitReading, readRateLimitFields } from '../../src/client/ratelimit-fields.ts';
import type { Reply, TestServer } from './helpers.ts';

type Probe = (t: TestServer) => Promise<boolean>;

const SCHEDULE = 'GET /api/rules/schedule';

const readingOf = (reply: Reply): RateLimitReading | undefined =>
  readRateLimitFields(
    Object.fromEntries(Object.entries(reply.headers).map(([name, value]) => [name, String(value)])),
  )[0];

/** The schedule limit spent one request at a time, and one more: every answer in order. */
const spend = async (t: TestServer): Promise<Reply[]> => {
  const replies: Reply[] = [];
  for (let i = 0; i <= t.server.options.limits['rules-schedule'].count; i++)
    replies.push(await t.call(SCHEDULE));
  return replies;
};

export const RATELIMIT_PROBES = {
  'ratelimit-policy-contradicts': async (t) => {
    const reading = readingOf(await t.call(SCHEDULE));
    const { count } = t.server.options.limits['rules-schedule'];
    const windowSeconds = t.server.options.minuteMs / 1000;
    return (reading?.policies ?? []).every(
      (p) => p.quota === count && (p.windowSeconds ?? windowSeconds) === windowSeconds,
    );
  },
  'ratelimit-remaining-stuck': async (t) => {
    const said = (await spend(t)).map((reply) => readingOf(reply)?.remaining);
    const count = said.length - 1;
    return said.every((r, i) => r === undefined || r === Math.max(0, count - 1 - i));
  },
  'ratelimit-reset-early': async (t) => {
    const refusal = (await spend(t)).at(-1)!;
    const t429 = readingOf(refusal)?.resetSeconds;
    if (refusal.status !== 429 || t429 === undefined) return true;
    t.clock.advance(t429 * 1000);
    return (await t.call(SCHEDULE)).status === 200;
  },
  'ratelimit-reset-after-retry': async (t) => {
    const refusal = (await spend(t)).at(-1)!;
    const t429 = readingOf(refusal)?.resetSeconds;
    return t429 === undefined || t429 <= Number(refusal.headers['retry-after']);
  },
} satisfies Record<string, Probe>;
