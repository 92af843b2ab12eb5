// SPEC.md §8 rule 2's Retry-After and §7's "the seconds to wait before retrying", graded for every bucket of the §8
// table from its shared probe (see limits.ts): every 429 of the bucket is read, and every one harness waited out is
// tested (src/runner/probe/retry-evidence.ts).
import {
  type CheckContext,
  fail,
  inconclusive,
  isSuccess,
  type ObservedRequest,
  type ProbeResult,
  type RetryAfterTest,
  retryAfterForm,
  retryAfterHonour,
  retryAfterSeconds,
  retryAfterShown,
  retryToleranceMs,
  roundedDown,
  shortSlackMs,
  skip,
  type Target,
  warn,
} from '../src/runner/checks.ts';
import type { BucketId } from '../src/spec/index.ts';
import { authorised, bucketTag, bucketView, probe, recordRequests, timesOf } from './bucket-probe.ts';

const firstRefusalOrSkip = (ctx: CheckContext, result: ProbeResult, bucket: BucketId) => {
  const refusal = result.firstRefusal?.exchange;
  if (refusal === undefined) return skip(`no 429 to examine (see LIMIT-ENFORCED-${bucketTag(bucket)})`);
  ctx.record(refusal);
  return authorised(refusal);
};

// Every 429 of the bucket is read, not only the first: any of them without integer seconds breaks the rule.
export const retryAfterWellFormed = async (ctx: CheckContext, bucket: BucketId): Promise<string> => {
  const result = await probe(ctx, bucket);
  const first = firstRefusalOrSkip(ctx, result, bucket);
  const at = timesOf(result);
  const form = retryAfterForm(bucketView(ctx, bucket, result), result.limit);
  const named = (o: ObservedRequest) => `'${o.label}' (answered ${at(o.answered)})`;
  if (form.malformed !== undefined) {
    recordRequests(ctx, [form.malformed.request.request]);
    return fail(`the 429 to ${named(form.malformed.request)} ${form.malformed.why}`);
  }
  if (form.beyond !== undefined) {
    recordRequests(ctx, [form.beyond.request.request]);
    return warn(`${form.beyond.why}: the 429 to ${named(form.beyond.request)}`);
  }
  return `Retry-After: ${retryAfterShown(first)} on the first 429, integer seconds within the window on all ${form.refusals} (window ${Math.ceil(result.limit.windowMs / 1000)} s)`;
};

// §7: "giving the seconds to wait before retrying". Every 429 whose Retry-After harness waited out is tested by the
// first request sent after it passed.
export const retryAfterHonoured = async (ctx: CheckContext, bucket: BucketId): Promise<string> => {
  const result = await probe(ctx, bucket);
  const first = firstRefusalOrSkip(ctx, result, bucket);
  const { limit } = result;
  const honour = retryAfterHonour(bucketView(ctx, bucket, result), limit);
  const after = (test: RetryAfterTest, t: number) =>
    `${Math.round(t - test.refusal.answered)} ms after the 429 to '${test.refusal.label}' arrived`;
  if (honour.broken !== undefined) {
    const { refusal, retry, seconds } = honour.broken;
    recordRequests(ctx, [refusal.request, retry.request]);
    return fail(
      `'${retry.label}', sent ${after(honour.broken, retry.sent)}, more than a rounding (${seconds >= 1 ? 'a second' : `${retryToleranceMs(limit)} ms`}) past its Retry-After of ${seconds} s, still got 429, and no request in between can have taken the room`,
    );
  }
  if (honour.short !== undefined) {
    const { refusal, retry, seconds } = honour.short;
    recordRequests(ctx, [refusal.request, retry.request]);
    return warn(
      `'${retry.label}', sent ${after(honour.short, retry.sent)}, past its Retry-After of ${seconds} s and the ${Math.round(shortSlackMs(refusal, limit))} ms that 429's round trip explains, still got 429, and no request in between can have taken the room: the Retry-After is short, as whole seconds rounded down are (§7: "the seconds to wait before retrying")`,
    );
  }
  if (honour.honoured !== undefined) {
    const { retry, seconds } = honour.honoured;
    recordRequests(ctx, [retry.request]);
    return `Retry-After ${seconds} s: '${retry.label}', sent ${after(honour.honoured, retry.sent)}, was admitted`;
  }
  const seconds = retryAfterSeconds(first);
  if (seconds === undefined) {
    return skip(`no integer Retry-After to wait for (see LIMIT-RETRY-AFTER-${bucketTag(bucket)})`);
  }
  // Capacity came back before any Retry-After had passed: an edge poll was admitted.
  const back = result.polls.find((r) => isSuccess(r.status));
  if (back !== undefined && result.firstRefusal !== undefined && seconds > 0) {
    recordRequests(ctx, [back]);
    return `Retry-After ${retryAfterShown(first)} s: '${back.label}', sent ${Math.round(back.sent - result.firstRefusal.answered)} ms after the first 429 arrived, was admitted`;
  }
  if (honour.late !== undefined) {
    const { retry, seconds } = honour.late;
    recordRequests(ctx, [retry.request]);
    return inconclusive(
      `'${retry.label}', sent ${after(honour.late, retry.sent)}, was admitted, but more than ${retryToleranceMs(limit)} ms after its Retry-After of ${seconds} s had passed (a loaded runner sent it late): a Retry-After too short would not show`,
    );
  }
  if (honour.undecided !== undefined) {
    const { retry, seconds, spender } = honour.undecided;
    recordRequests(ctx, [retry.request]);
    return inconclusive(
      `'${retry.label}', sent ${after(honour.undecided, retry.sent)}, past its Retry-After of ${seconds} s, got 429, but '${spender!.label}' (answered ${after(honour.undecided, spender!.answered)}, ${spender!.status ?? 'no answer'}) may have spent the room it promised`,
    );
  }
  // The probe waits a window at most (a longer Retry-After is LIMIT-RETRY-AFTER's WARN), so it never sees one pass.
  if (honour.waitable === 0) {
    return inconclusive(
      `Retry-After ${retryAfterShown(first)} s is longer than the ${limit.windowMs / 1000} s window, which is as long as harness waits: whether a retry after it is admitted cannot be seen`,
    );
  }
  return inconclusive(
    `no request went out after a Retry-After (first: ${retryAfterShown(first)} s) had passed: the probe's polls ran out (${result.polls.length} sent)`,
  );
};

/** Whether a Retry-After of the bucket can be a faithful wait rounded down: one of a second, below its window. */
export const roundedDownPossible = (target: Target, bucket: BucketId): boolean =>
  roundedDown(1, target.limitOf(bucket));
