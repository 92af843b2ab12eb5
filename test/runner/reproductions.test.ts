// Every reproduction a FAIL prints by hand, run as printed (bash, the placeholders exported) against the faulted
// reference server it was printed for, shows the fault: the status or body the check graded. The same commands sent
// to a faithful server show something else, so what is matched is the fault and not any answer. AUTH-FORBIDDEN's,
// printed from a passing run, gets 403 as printed. (The limit faults' replays: test/cli/replay-faults.test.ts.)
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { allChecks } from '../../conformance/index.ts';
import { parseProfile } from '../../src/profile/read.ts';
import { withSecretOrigins } from '../../src/profile/secrets.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import {
  FAULTS,
  type FaultName,
  type RunningReferenceServer,
  startReferenceServer,
} from '../../src/reference/index.ts';
import { runConformance } from '../../src/runner/runner.ts';
import { selectChecks } from '../../src/runner/select.ts';
import { clientVariables } from '../../src/runner/shell-word.ts';
import type { CheckResult } from '../../src/runner/types.ts';
import type { ClientRole, Profile } from '../../src/spec/index.ts';
import { SCALED } from '../support/testbed.ts';
import { BY_HAND, NO_FAIL, REPLAYED, type Shows } from './fault-reproductions.ts';

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

/**
 * The server's profile, its client ids taken from the environment when `idsFromEnvironment` (so the run hides them),
 * each as a variable of its documented name.
 */
const profileOf = (server: RunningReferenceServer, idsFromEnvironment: boolean): Profile => {
  const profile = server.profile();
  const ids = (Object.keys(profile.clients) as ClientRole[]).map((role) => ({
    name: clientVariables(role).id,
    value: profile.clients[role]!.client_id,
    pointer: `/clients/${role}/client_id`,
    whole: true,
  }));
  return idsFromEnvironment ? withSecretOrigins(profile, { fromEnvironment: ids }) : profile;
};

/** The checks' report against the target of `profile`, run in-process as conformance runs them. */
const runOn = (profile: Profile, only: readonly string[]) => {
  const target = resolveTarget(profile);
  const selection = selectChecks(allChecks(target), { slow: true, only });
  return runConformance(target, selection, { provenance: { version: 'test', command: 'test' } });
};

/** The checks' results against `server`. */
const runChecks = async (
  server: RunningReferenceServer,
  only: readonly string[],
  idsFromEnvironment = false,
): Promise<CheckResult[]> => [...(await runOn(profileOf(server, idsFromEnvironment), only)).checks];

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
  it('covers every fault: each FAILs by hand here, or by replay (test/cli/replay-faults.test.ts), or never', () => {
    const named = [...Object.keys(BY_HAND), ...Object.keys(REPLAYED), ...NO_FAIL];
    expect([...named].sort()).toEqual(FAULTS.map((f) => f.name).sort());
  });

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

  it('names client ids the run hides by their variables, never [REDACTED], and still gets 403', async () => {
    const [check] = await runChecks(faithful, ['AUTH-FORBIDDEN'], true);
    const commands = check!.repro.join('\n');
    expect(commands).toContain('client_id=$RESTRICTED_CLIENT_ID&client_secret=$RESTRICTED_CLIENT_SECRET&');
    expect(commands).not.toMatch(/REDACTED|harness-restricted/);
    const output = await runAsPrinted(check!.repro, placeholdersOf(faithful));
    expect(statuses(output)).toEqual([403]);
  });

  it("names a secret the profile takes from ${MY_SECRET} $MY_SECRET, the profile's own name, and gets 403 with it exported", async () => {
    const profile = faithful.profile();
    const secret = profile.clients.restricted!.client_secret;
    const written = {
      ...profile,
      clients: {
        ...profile.clients,
        restricted: { ...profile.clients.restricted!, client_secret: '${MY_SECRET}' },
      },
    };
    const report = await runOn(parseProfile(stringify(written), 'profile.yaml', { MY_SECRET: secret }), [
      'AUTH-FORBIDDEN',
    ]);
    const [check] = report.checks;
    expect(check?.grade).toBe('PASS');
    const commands = check!.repro.join('\n');
    expect(commands).toContain('&client_secret=$MY_SECRET&');
    expect(commands).not.toMatch(/RESTRICTED_CLIENT_SECRET|REDACTED/);
    // Exported as the user exports it for the profile, and no other variable of the restricted client.
    const { [clientVariables('restricted').secret]: _, ...others } = placeholdersOf(faithful);
    const output = await runAsPrinted(check!.repro, { ...others, MY_SECRET: secret });
    expect(statuses(output)).toEqual([403]);
    expect(JSON.stringify(report).split(secret)).toHaveLength(1);
  });
});
