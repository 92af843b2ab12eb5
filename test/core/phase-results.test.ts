// A phase's token failures as k6 records them (harness_token_status, and harness_token_unread for answers harness's
// reader left unread) read back into a phase result, kept by the merge and the summary schema, and named by the
// verdict in the phase's message, which every report shows.
import { describe, expect, it } from 'vitest';
import { mergeSummaries, type UnreadTokenAnswer } from '../../core/evidence.ts';
import { type MetricValues, phaseResults, UNREAD_BITS } from '../../core/phase-results.ts';
import { judgeAll } from '../../core/verdict.ts';
import { runnerSummaryOf } from '../../src/k6-driver/merge-input.ts';
import { NETWORKS, SIMULATED_RUNNER, simulate } from '../load/simulate.ts';

const base = simulate({ kind: 'anchored', network: NETWORKS.lan }, { scenarios: ['transactions'] });
const phases = base.phases.map((p) => p.plan);
const phase = phases[0]!;

/** What k6's end-of-test data holds when every token answer of the phase got no token, `unread` of them for why. */
const tokenless = (statuses: MetricValues, unread: readonly UnreadTokenAnswer[]) => {
  const bits = unread.map((answer) => UNREAD_BITS[answer]);
  const metrics: Record<string, MetricValues> = {
    [`iterations{scenario:${phase.name}}`]: { count: 400 },
    [`harness_no_token{scenario:${phase.name}}`]: { count: 400 },
    [`harness_token_status{scenario:${phase.name}}`]: statuses,
    ...(bits.length === 0
      ? {}
      : {
          [`harness_token_unread{scenario:${phase.name}}`]: {
            count: statuses.count ?? 0,
            min: Math.min(...bits),
            max: Math.max(...bits),
          },
        }),
  };
  const results = phaseResults((name) => metrics[name] ?? {}, phases);
  return { ...base, runner: SIMULATED_RUNNER, phases: results };
};

const messageOf = (summary: ReturnType<typeof tokenless>): string => judgeAll(summary)[0]!.message;

describe('a phase whose token answers were left unread', () => {
  it('names an encoded answer, an oversized one, or both, and no reason where none was recorded', () => {
    const all200 = { count: 12, min: 200, max: 200 };
    expect(messageOf(tokenless(all200, ['encoded']))).toMatch(
      /400 requests not sent for want of a token: the token endpoint sent an encoded answer \(Content-Encoding\) though identity was asked for: not decoded; 12 token requests got no token/,
    );
    expect(messageOf(tokenless(all200, ['oversized']))).toMatch(
      /the token endpoint sent an answer over 65536 bytes: not read past them; 12 token requests got no token/,
    );
    expect(messageOf(tokenless(all200, ['encoded', 'oversized']))).toMatch(
      /the token endpoint sent an encoded answer .*: not decoded, and sent an answer over 65536 bytes: not read past them; 12/,
    );
    expect(messageOf(tokenless(all200, []))).toMatch(
      /the token endpoint answered 200 without an access_token to 12 token requests/,
    );
    expect(messageOf(tokenless({ count: 5, min: 0, max: 200 }, ['oversized']))).toMatch(
      /the token endpoint answered 0 to 200 \(0: no answer\) to 5 token requests; it sent an answer over 65536 bytes: not read past them/,
    );
  });

  it('keeps the reasons through the merge of several runners and through the schema a summary is read back by', () => {
    const encoded = tokenless({ count: 3, min: 200, max: 200 }, ['encoded']);
    const oversized = tokenless({ count: 4, min: 200, max: 200 }, ['oversized']);
    expect(encoded.phases[0]!.tokenFailures).toEqual({
      count: 3,
      minStatus: 200,
      maxStatus: 200,
      unread: ['encoded'],
    });
    const json = JSON.parse(JSON.stringify(encoded)) as unknown;
    expect(runnerSummaryOf(json, 'runner-1.json').phases[0]!.tokenFailures?.unread).toEqual(['encoded']);
    const merged = mergeSummaries([
      { source: 'a', summary: encoded },
      { source: 'b', summary: { ...oversized, runner: { ...SIMULATED_RUNNER, segment: '1/2:1' } } },
    ]);
    expect(merged.phases[0]!.tokenFailures?.unread).toEqual(['encoded', 'oversized']);
  });

  it('refuses a summary naming a reason harness never records: a file carries no text of its own into the message', () => {
    const forged = JSON.parse(JSON.stringify(tokenless({ count: 3, min: 200, max: 200 }, ['encoded']))) as {
      phases: { tokenFailures: { unread: string[] } }[];
    };
    forged.phases[0]!.tokenFailures.unread = ['<img src=x onerror=alert(1)>'];
    expect(() => runnerSummaryOf(forged, 'runner-1.json')).toThrow(/runner-1\.json: .*unread/);
  });
});
