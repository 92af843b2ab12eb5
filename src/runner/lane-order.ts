// The order checks run in: the "before" lane first (it needs untouched buckets), then sub-second buckets alone, then
// every other lane concurrently (one lane per rate-limit bucket, so no check spends another's budget
// mid-measurement), then the "after" lane; the "alongside" lane (the token-expiry check, which mostly waits) runs
// beside all of them from the start.

import type { Target } from '../profile/target.ts';
import { BUCKETS, type BucketId } from '../spec/index.ts';
import { type Ran, runCheck } from './run-check.ts';
import type { Session } from './session.ts';
import type { CheckDefinition, Lane } from './types.ts';

const runLanes = async (checks: readonly CheckDefinition[], session: Session): Promise<Ran[]> => {
  const lanes = new Map<Lane, CheckDefinition[]>();
  for (const check of checks) lanes.set(check.lane, [...(lanes.get(check.lane) ?? []), check]);
  const results = await Promise.all(
    [...lanes.values()].map(async (lane) => {
      const done: Ran[] = [];
      for (const check of lane) done.push(await runCheck(check, session));
      return done;
    }),
  );
  return results.flat();
};

/** Every check of `running`, each lane in its turn; what ran, in the order it finished. Never rejects. */
export const runInLaneOrder = async (
  running: readonly CheckDefinition[],
  target: Target,
  session: Session,
): Promise<Ran[]> => {
  const ran: Ran[] = [];
  // Awaited last: runCheck never rejects.
  const alongside = runLanes(
    running.filter((c) => c.lane === 'alongside'),
    session,
  );
  ran.push(
    ...(await runLanes(
      running.filter((c) => c.lane === 'before'),
      session,
    )),
  );
  // Sub-second windows first and alone: a 500-request burst must fit in one second, which other lanes' traffic
  // on the same machine could stretch.
  const main = running.filter((c) => !['before', 'after', 'alongside'].includes(c.lane));
  const subSecond = ({ lane }: CheckDefinition) =>
    lane in BUCKETS && target.limitOf(lane as BucketId).windowMs <= 1000;
  ran.push(...(await runLanes(main.filter(subSecond), session)));
  ran.push(
    ...(await runLanes(
      main.filter((c) => !subSecond(c)),
      session,
    )),
  );
  ran.push(
    ...(await runLanes(
      running.filter((c) => c.lane === 'after'),
      session,
    )),
  );
  ran.push(...(await alongside));
  return ran;
};
