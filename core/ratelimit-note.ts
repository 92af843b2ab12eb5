// What a load phase's answers said in RateLimit header fields, as one INFO note beside its verdict: the dialects, the
// policy declared against SPEC.md's limit, and a 429 that said room remained. Load notes; conformance grades
// (conformance/ratelimit-fields.ts WARNs on the same contradictions).

import type { PhaseRateLimit, Range } from './evidence.ts';
import type { PhasePlan } from './plan.ts';
import { dialectsOfBits, RATELIMIT_DIALECTS } from './ratelimit-dialects.ts';

const shown = ({ min, max }: Range): string => (min === max ? String(min) : `${min} to ${max}`);

export const rateLimitNote = (plan: PhasePlan, said: PhaseRateLimit): string => {
  const { count, windowMs } = plan.limit;
  const windowSeconds = Math.ceil(windowMs / 1000);
  const dialects = dialectsOfBits(said.dialects).map((d) => RATELIMIT_DIALECTS[d].says);
  const { quota, windowSeconds: declared } = said;
  const agrees =
    quota !== undefined &&
    quota.min === count &&
    quota.max === count &&
    (declared === undefined || (declared.min === windowSeconds && declared.max === windowSeconds));
  const policy =
    quota === undefined
      ? 'no quota read from them'
      : `declared ${shown(quota)} per ${declared === undefined ? 'an undeclared window' : `${shown(declared)} s`}, ${agrees ? 'as SPEC.md states' : `not SPEC.md's ${count} per ${windowSeconds} s`}`;
  const roomy =
    said.remainingOnLimitedMax !== undefined && said.remainingOnLimitedMax > 0
      ? `; a 429 said ${said.remainingOnLimitedMax} remained`
      : '';
  return `RateLimit fields (${dialects.join(', and ')}): ${policy}${roomy}`;
};
