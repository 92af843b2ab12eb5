import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { duration } from '../../src/cli/parse.ts';

describe('duration', () => {
  it('reads milliseconds, seconds, minutes and hours', () => {
    expect([duration('500ms'), duration('10s'), duration('3m'), duration('1h')]).toEqual([
      500, 10_000, 180_000, 3_600_000,
    ]);
  });

  it('reads durations as people write them, units combined largest first', () => {
    expect([duration('1m30s'), duration('1h30m'), duration('2h0m5s'), duration('1s500ms')]).toEqual([
      90_000, 5_400_000, 7_205_000, 1500,
    ]);
  });

  it('refuses zero and what could be read more than one way', () => {
    for (const bad of [
      '0s',
      '0h0m',
      '10',
      '',
      'ten seconds',
      '1.5h',
      '30s1m',
      '1m1m',
      '1H',
      '1 m',
      '-5s',
      '1d',
    ])
      expect(() => duration(bad), bad).toThrow(InvalidArgumentError);
  });

  it('refuses a duration longer than a timer can hold, which would end the run at once', () => {
    expect(duration('596h')).toBe(596 * 3_600_000);
    expect(() => duration('597h')).toThrow(/at most 596h/);
  });
});
