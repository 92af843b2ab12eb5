import { describe, expect, it } from 'vitest';
import { inconclusiveAdvice } from '../../src/cli/load-advice.ts';

describe('advice for an INCONCLUSIVE load phase', () => {
  it('names fewer jobs, --instances and a bigger runner when k6 fell behind its schedule', () => {
    for (const message of [
      'harness could not offer 200/s: 35 iterations dropped (all VUs busy)',
      'harness could not offer 200/s: k6 started 1 % of iterations over 80 ms late (CPU starved)',
      'harness could not offer 200/s: the k6 instances started 90 ms apart',
    ]) {
      const [line, ...more] = inconclusiveAdvice(['no 429: the limit cannot be read', message]);
      expect(line).toMatch(/fewer other jobs.*--instances N.*bigger runner/);
      expect(more).toEqual([]);
    }
  });

  it('points at the token endpoint when requests went unsent for want of a token', () => {
    const message =
      'harness could not offer 200/s: 120 requests not sent for want of a token: the token endpoint answered 503 to 4 token requests';
    expect(inconclusiveAdvice([message, message])).toEqual([
      expect.stringMatching(/^advice: .*look at the token endpoint/),
    ]);
  });

  it("points at where the runners ran when the target's Date could not line up their clocks", () => {
    for (const message of [
      "harness could not offer 1000/s: the runners' starts may lie over a tenth of a window apart: by the target's Date headers, ...",
      "harness could not offer 1000/s: the runners' starts cannot be compared: pod-2.log shares no host's clock and ...",
    ])
      expect(inconclusiveAdvice([message])).toEqual([
        expect.stringMatching(/^advice: .*nearer the target.*--instances on one machine/),
      ]);
  });

  it('gives none when the shortfall was not harness', () => {
    expect(
      inconclusiveAdvice(['no 429: the limit cannot be read', 'SIGINT before this phase ended']),
    ).toEqual([]);
  });
});
