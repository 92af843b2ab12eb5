// LIMIT-ADMITS-*'s evidence that a refusal below the limit is the limiter's own, and not outside traffic of the
// tenant holding the limit at that moment (§8 rule 1): the refusal repeats. Twice in a row is two attempts in a row
// refused below the limit, a burst's refusal and the request sent at once after it (probe-steps.ts), or two edge
// polls in a row. Anything admitted in between would have shown room.
import {
  isAdmitted,
  type ObservedRequest,
  type ProbeResult,
  type RefusedBelowLimit,
  refusedBelowLimit,
} from '../src/runner/checks.ts';

type Requests = ProbeResult['spend']['requests'];
type Burst = Pick<ProbeResult['spend'], 'onceMore'>;

export interface TwiceInARow {
  readonly first: RefusedBelowLimit<ObservedRequest>;
  readonly then: RefusedBelowLimit<ObservedRequest>;
  /** How the second came after the first, for the message. */
  readonly how: string;
}

export interface RepeatEvidence {
  readonly twice?: TwiceInARow;
  /** The request sent at once after a refusal below the limit, and admitted: room was there after all. */
  readonly admittedAfter?: ObservedRequest;
}

/**
 * The repeat of a refusal below the limit, where the probe has one: `attempts` in the order sent (each with its
 * proof, if any), and the edge polls. `view` narrows the tenant's log to some requests.
 */
export const repeatEvidence = (
  log: readonly ObservedRequest[],
  result: ProbeResult,
  attempts: readonly {
    readonly burst: Burst;
    readonly proof: RefusedBelowLimit<ObservedRequest> | undefined;
  }[],
  view: (requests: Requests) => readonly ObservedRequest[],
): RepeatEvidence => {
  const below = (requests: Requests) => refusedBelowLimit(log, result.limit, view(requests));
  let admittedAfter: ObservedRequest | undefined;
  for (const { burst, proof } of attempts) {
    if (proof === undefined || burst.onceMore === undefined) continue;
    const then = below([burst.onceMore]);
    if (then !== undefined) return { twice: { first: proof, then, how: 'sent at once after it' } };
    admittedAfter ??= view([burst.onceMore]).find(isAdmitted);
  }
  const polls = [...result.polls].sort((a, b) => a.sent - b.sent);
  for (let i = 1; i < polls.length; i++) {
    const [first, then] = [below([polls[i - 1]!]), below([polls[i]!])];
    if (first !== undefined && then !== undefined) return { twice: { first, then, how: 'the next poll' } };
  }
  return admittedAfter === undefined ? {} : { admittedAfter };
};
