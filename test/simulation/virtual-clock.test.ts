import { describe, expect, it } from 'vitest';
import { runSimulated } from '../support/simulation/run.ts';
import { VirtualClock } from '../support/simulation/virtual-clock.ts';

describe('VirtualClock', () => {
  it('wakes waits in the order they end, ties in the order asked, and moves time only to their ends', async () => {
    const clock = new VirtualClock(1000);
    const woke: string[] = [];
    const wait = (name: string, ms: number) =>
      clock.sleep(ms).then(() => woke.push(`${name}@${clock.now()}`));
    await clock.run(
      Promise.all([wait('late', 500), wait('first', 10), wait('tie-a', 200), wait('tie-b', 200)]),
    );
    expect(woke).toEqual(['first@1010', 'tie-a@1200', 'tie-b@1200', 'late@1500']);
  });

  it('never wakes an aborted wait, and rejects it as node:timers does', async () => {
    const clock = new VirtualClock(0);
    const stop = new AbortController();
    const aborted = clock.sleep(100, stop.signal);
    stop.abort('ended');
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError', cause: 'ended' });
    await clock.run(clock.sleep(5));
    expect(clock.now()).toBe(5);
  });

  it('holds still while tracked real work runs, then moves on', async () => {
    const clock = new VirtualClock(0);
    const real = clock.track(new Promise<string>((resolve) => setTimeout(() => resolve('done'), 30)));
    const order: string[] = [];
    await clock.run(
      Promise.all([
        real.then((v) => order.push(`${v}@${clock.now()}`)),
        clock.sleep(1).then(() => order.push('slept')),
      ]),
    );
    expect(order).toEqual(['done@0', 'slept']);
  });

  it('says so when a run waits on nothing that time would end', async () => {
    const clock = new VirtualClock(0);
    await expect(clock.run(new Promise(() => undefined))).rejects.toThrow(/waits, but on nothing/);
  });
});

describe('a simulated conformance run', () => {
  it('is the same run, to the millisecond in every message, for the same seed', async () => {
    const run = async () =>
      (
        await runSimulated({ limiter: 'aligned' }, { only: ['rules-execute'], seed: 5, network: 'far' })
      ).checks.map((c) => `${c.id} ${c.grade} ${c.message}`);
    const [first, second] = [await run(), await run()];
    expect(first.length).toBeGreaterThan(3);
    expect(second).toEqual(first);
  });

  it('takes the windows it waits out in virtual time, not real time', async () => {
    const started = performance.now();
    const report = await runSimulated(
      { minuteMs: 60_000 },
      { only: ['LIMIT-ENFORCED-RULES-EXECUTE'], seed: 3 },
    );
    expect(report.durationMs).toBeGreaterThan(60_000);
    expect(performance.now() - started).toBeLessThan(report.durationMs / 4);
  });
});
