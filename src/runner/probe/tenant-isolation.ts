// How a probe shows that another tenant's limit is its own (SPEC.md §8 rule 1): once a fresh burst that drew a 429 is
// answered, that tenant's requests go at once (OnRefused), as many as a bucket shared with this tenant cannot refill
// by their answers (isolationBurst), and more of them admitted than a shared bucket could admit proves it
// (admittedBeyondShared). The sooner they follow the 429, the less a shared bucket refills, so the tighter the bound.
import { refilledIn } from '../../../core/faithful-bounds.ts';
import { isSuccess } from '../../client/index.ts';
import { isAdmitted, isRefused, type LimitWindow, ms, type Observation } from './limit-bounds.ts';

/**
 * What goes once a fresh burst that drew a 429 is answered whole: another tenant's requests, so that a bucket shared by
 * both has the least time to refill before them (see isolated, sharing.ts). Answered whole, because only an answer
 * back before theirs leave shows the server decided it first: the network reorders what it delays (a limit of 1 may
 * admit the second of a burst and refuse the first), and admittedBeyondShared's bounds rest on those decisions.
 * `ready` fetches their tokens before the burst, `send` goes then.
 */
export interface OnRefused {
  ready(): Promise<unknown>;
  send(): void;
}

/**
 * Requests of another tenant sent at once after this tenant's refusal, admitted beyond what one limit shared by
 * both could admit by their answers, showing a limit of their own. Two bounds, the lower counts:
 * - from this tenant's last 429 answered before they went: a bucket then held under one token, and refills ⌊N·ℓ/W⌋ whole tokens
 *   in ℓ, plus the one a whole-token schedule may add (core/faithful-bounds.ts);
 * - from this tenant's last admit answered before they went: a bucket then held at most N − 1, plus its refill, less this tenant's
 *   admits since. It is what decides a limit of 1, whose one token comes back a window after it was taken: a
 *   whole-token schedule of one a window is a fixed window, and the probe's variants go where it found no edge.
 * A fixed window with no edge in between, and a sliding log holding the fresh burst, admit none.
 */
export const admittedBeyondShared = (
  own: readonly Observation[],
  theirs: readonly Pick<Observation, 'sent' | 'answered' | 'status'>[],
  limit: LimitWindow,
): { readonly explain: (at: (t: number) => string) => string } | undefined => {
  const admitted = theirs.filter((o) => isSuccess(o.status));
  if (admitted.length === 0) return undefined;
  const first = Math.min(...theirs.map((o) => o.sent));
  const until = Math.max(...admitted.map((o) => o.answered));
  // Only answers that came back before theirs left were decided before the server could take theirs: a request of
  // this tenant sent before them but answered after may have reached the server behind them (the network reorders
  // what it delays), and a 429 then may be theirs having taken the last tokens.
  const before = own.filter((o) => o.answered <= first);
  const refusal = before.filter(isRefused).at(-1);
  const taken = before.filter(isAdmitted).at(-1);
  if (refusal === undefined) return undefined;
  const fromRefusal = refilledIn(limit, until - refusal.sent) + 1;
  const since = taken && before.filter((o) => isAdmitted(o) && o.sent > taken.sent).length;
  const fromAdmit =
    taken === undefined
      ? Number.POSITIVE_INFINITY
      : limit.count - 1 + refilledIn(limit, until - taken.sent) - since!;
  const bound = Math.max(0, Math.min(fromRefusal, fromAdmit));
  if (admitted.length <= bound) return undefined;
  const why =
    fromRefusal <= fromAdmit
      ? `a bucket under one token at the 429 refills ⌊${limit.count} × ${Math.round(until - refusal.sent)} / ${limit.windowMs}⌋ + 1`
      : `a bucket held at most ${limit.count - 1} after this tenant's '${taken!.label}' was admitted (sent ${ms(refusal.sent - taken!.sent)} before the 429) and refills ⌊${limit.count} × ${Math.round(until - taken!.sent)} / ${limit.windowMs}⌋, less ${since} admitted since`;
  return {
    explain: (at) =>
      `${admitted.length} of ${theirs.length} were admitted and answered by ${at(until)}, after this tenant's ` +
      `'${refusal.label}' got 429 (sent ${at(refusal.sent)}); one limit of ${limit.count} per ` +
      `${ms(limit.windowMs)} shared with this tenant admits at most ${bound} by then (${why}; a fixed window with ` +
      'no edge between, or a sliding log holding the fresh burst, none)',
  };
};

/**
 * How many requests another tenant sends at once after a refusal: more than a shared bucket refills by their answers
 * (`spanMs` after the refusal left, as far as can be told before they go), with room for two more; at most the
 * limit, which a limit of their own admits whole.
 */
export const isolationBurst = (limit: LimitWindow, spanMs: number): number =>
  Math.min(limit.count, refilledIn(limit, spanMs) + 3);
