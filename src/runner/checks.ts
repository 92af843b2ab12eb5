// Everything a check in conformance/ needs from the runner, in one module: registering a check and its
// preconditions, the grades it ends with, the probe and the bounds that grade it. Checks import this and the spec
// data (src/spec) only, so the runner's own layout can change without touching them.
export { mostAdmittedInSpan } from '../../core/faithful-bounds.ts';
export {
  type Exchange,
  isSuccess,
  issuedToken,
  type QuotaPolicy,
  quoteJson,
  type RateLimitReading,
  rateLimitResetSeconds,
  readRateLimitFields,
} from '../client/index.ts';
export type { Target } from '../profile/target.ts';
export type { LoggedRequest, ObservedRequest } from './bucket-log.ts';
export type { CheckContext } from './context.ts';
export { TOKEN_ENDPOINT_KEY } from './counting-client.ts';
export {
  type Finding,
  fail,
  type Grade,
  inconclusive,
  info,
  type Shown,
  skip,
  warn,
} from './grades.ts';
export { limitTimeline } from './limit-timeline.ts';
export type { PlanItem } from './plan-item.ts';
export {
  type CheckSpec,
  check,
  needsClient,
  needsObservabilityEndpoints,
  needsProfile,
  needsToken,
  type Precondition,
} from './preconditions.ts';
export {
  type AdmittedOverLimit,
  admittedAfterRefusal,
  admittedInSpan,
  allRefused,
  isAdmitted,
  type LimitWindow,
  mostAdmittedWithinWindow,
  type Observation,
  type RefusedBelowLimit,
  refusedBelowLimit,
  relativeTo,
} from './probe/limit-bounds.ts';
export { probeBucket } from './probe/probe.ts';
export {
  freshBurstSize,
  type ProbePlan,
  type ProbeResult,
  retryAfterSeconds,
  retryAfterShown,
  retryToleranceMs,
  retryWaitMs,
  type Variant,
  WINDOW_END_RETRIES,
  widthOf,
} from './probe/probe-result.ts';
export {
  type RetryAfterTest,
  retryAfterForm,
  retryAfterHonour,
  roundedDown,
  shortSlackMs,
} from './probe/retry-evidence.ts';
export { admittedBeyondShared } from './probe/tenant-isolation.ts';
export { lengthShown } from './probe/window-length.ts';
export type { CheckDefinition } from './types.ts';
