// Every reproduction a FAIL prints by hand, run as printed (bash, the placeholders exported) against the faulted
// reference server it was printed for, shows the fault: the status or body the check graded. The same commands sent
// to a faithful server show something else, so what is matched is the fault and not any answer. AUTH-FORBIDDEN's,
// printed from a passing run, gets 403 as printed. (The limit faults' replays: test/cli/replay-faults.test.ts.)
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allChecks } from '../../conformance/index.ts';
import {
  type FaultName,
  type RunningReferenceServer,
  startReferenceServer,
} from '../../src/reference/index.ts';
import { runConformance } from '../../src/runner/runner.ts';
import { selectChecks } from '../../src/runner/select.ts';
import { clientVariables } from '../../src/runner/shell-word.ts';
import { resolveTarget } from '../../src/runner/target.ts';
import type { CheckResult } from '../../src/runner/types.ts';
import type { ClientRole } from '../../src/spec/index.ts';
import { SCALED } from '../../src/testbed/conformance.ts';

/** What the fault's reproduction shows: the last answer's status, or a body the faithful server never sends. */
type Shows = { readonly status: number } | { readonly body: RegExp };

/** Each fault whose FAIL is reproduced by hand, its FAILing checks, and what their commands show. */
const BY_HAND: Partial<Record<FaultName, readonly [checks: readonly string[], shows: Shows]>> = {
  'token-type-lowercase': [['AUTH-TOKEN-TYPE'], { body: /"token_type":"bearer"/ }],
  // Twice the 5 s lifetime of the scaled server.
  'expires-in-wrong': [['AUTH-TOKEN-EXPIRES-IN'], { body: /"expires_in":10\b/ }],
  'expires-in-string': [['AUTH-TOKEN-SCHEMA', 'AUTH-TOKEN-EXPIRES-IN'], { body: /"expires_in":"5"/ }],
  'token-json-only': [['AUTH-TOKEN-FORM'], { status: 400 }],
  'grant-type-unchecked': [['AUTH-TOKEN-GRANT-TYPE'], { status: 200 }],
  'wrong-secret-401': [['AUTH-TOKEN-BAD-SECRET'], { status: 401 }],
  'unknown-client-401': [['AUTH-TOKEN-BAD-CLIENT-ID'], { status: 401 }],
  'malformed-scope-accepted': [['AUTH-TOKEN-BAD-SCOPE'], { status: 200 }],
  'missing-scope-accepted': [['AUTH-TOKEN-MISSING-FIELD'], { status: 200 }],
  'forbidden-as-401': [['AUTH-FORBIDDEN'], { status: 401 }],
  'missing-token-accepted': [['AUTH-BEARER-MISSING'], { status: 200 }],
  'truncated-token-accepted': [['AUTH-BEARER-TRUNCATED'], { status: 200 }],
  'altered-token-accepted': [['AUTH-BEARER-ALTERED'], { status: 200 }],
  // Served once the token's lifetime has passed: the command waits it out as the check did.
  'expired-token-accepted': [['AUTH-TOKEN-EXPIRY'], { status: 200 }],
  // Refused on its second use: the command uses it twice as the check did.
  'token-single-use': [['AUTH-TOKEN-REUSE'], { status: 401 }],
};

/** The placeholders a reproduction names, exported with the values of `server`'s profile. */
const placeholdersOf = (server: RunningReferenceServer): Record<string, string> => {
  const { clients } = server.profile();
  return Object.fromEntries(
    (Object.keys(clients) as ClientRole[]).flatMap((role) => {
      const { id, secret } = clientVariables(role);
      return [
        [id, clients[role]!.client_id],
        [secret, clients[role]!.client_secret],
      ];
    }),
  );
};

/** The commands run by bash one after another, as pasted into a shell with the placeholders exported. */
const runAsPrinted = (commands: readonly string[], env: Record<string, string>): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(
      'bash',
      ['-c', commands.join('\n')],
      { env: { ...process.env, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });

/** The checks' results against `server`, run in-process as conformance runs them. */
const runChecks = async (server: RunningReferenceServer, only: readonly string[]): Promise<CheckResult[]> => {
  const target = resolveTarget(server.profile());
  const selection = selectChecks(allChecks(target), { slow: true, only });
  const report = await runConformance(target, selection, { version: 'test', command: 'test' });
  return [...report.checks];
};

const statuses = (output: string): number[] =>
  // Not at a line's start: an answer's body ends with no newline, and curl writes the next status line after it.
  [...output.matchAll(/HTTP\/[\d.]+ (\d{3}) /g)].map((match) => Number(match[1]));

const shown = (output: string, shows: Shows): boolean =>
  'status' in shows ? statuses(output).at(-1) === shows.status : shows.body.test(output);

let faithful: RunningReferenceServer;
beforeAll(async () => {
  faithful = await startReferenceServer(SCALED);
});
afterAll(() => faithful.close());

describe.concurrent('a FAIL reproduced by hand, run as printed', () => {
  it.each(Object.entries(BY_HAND))(
    '%s: shows the fault, which a faithful server does not',
    async (fault, entry) => {
      const [checks, shows] = entry!;
      const server = await startReferenceServer({ ...SCALED, fault: fault as FaultName });
      try {
        const results = await runChecks(server, checks);
        expect(results.map((c) => [c.id, c.grade])).toEqual(checks.map((id) => [id, 'FAIL']));
        for (const check of results) {
          const commands = check.repro;
          expect(commands.join('\n'), check.id).not.toMatch(/REDACTED|harness replay/);
          const output = await runAsPrinted(commands, placeholdersOf(server));
          expect(shown(output, shows), `${check.id}: ${commands.join('\n')}\n${output}`).toBe(true);
          // The same commands, sent to the faithful server with its credentials.
          const elsewhere = commands.map((command) =>
            command.replaceAll(new URL(server.baseUrl).host, new URL(faithful.baseUrl).host),
          );
          const control = await runAsPrinted(elsewhere, placeholdersOf(faithful));
          expect(shown(control, shows), `${check.id} against the faithful server:\n${control}`).toBe(false);
        }
      } finally {
        await server.close();
      }
    },
  );
});

describe("AUTH-FORBIDDEN's reproduction", () => {
  it('gets 403 from a faithful server, as printed: the token is the restricted client’s', async () => {
    const [check] = await runChecks(faithful, ['AUTH-FORBIDDEN']);
    expect(check?.grade).toBe('PASS');
    expect(check?.repro[0]).toContain('$RESTRICTED_CLIENT_SECRET');
    const output = await runAsPrinted(check!.repro, placeholdersOf(faithful));
    expect(statuses(output)).toEqual([403]);
  });
});
