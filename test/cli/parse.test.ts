import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { duration } from '../../src/cli/parse.ts';

describe('duration', () => {
  it('reads milliseconds, seconds and minutes', () => {
    expect([duration('500ms'), duration('10s'), duration('3m')]).toEqual([500, 10_000, 180_000]);
  });

  it('refuses zero and what is no duration', () => {
    for (const bad of ['0s', '10', 'ten seconds', '1h'])
      expect(() => duration(bad)).toThrow(InvalidArgumentError);
  });

  it('refuses a duration longer than a timer can hold, which would end the run at once', () => {
    expect(duration('35791m')).toBe(35_791 * 60_000);
    expect(() => duration('40000m')).toThrow(/at most 35791m/);
  });
});
