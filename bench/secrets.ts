// `npx tsx bench/secrets.ts [only|all] [deadline]`: `harness conformance` against the target that echoes every secret
// it is sent (test/support/secrets-echo.ts), as it is and issuing a fresh 8 KB token in every answer besides: wall
// time, exit code, peak memory, and how many of the secrets it was given (tokens issued included) show up in
// stdout, stderr or any report. The machine is shared, so wall times vary from run to run.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  ECHO_ENV,
  ECHO_PROFILE,
  filesUnder,
  secretsIn,
  startSecretsEcho,
} from '../test/support/secrets-echo.ts';

/** HARNESS_BIN measures another build, e.g. one of the commit before the redactor's rewrite. */
const BIN = process.env.HARNESS_BIN ?? resolve(import.meta.dirname, '..', 'bin', 'harness.js');
/** `all` runs every check. */
const only = process.argv[2] ?? 'token,bearer,ENDPOINT-GET-API-RULES-STATUS-EXECUTION-ID';
const deadline = process.argv[3] ?? '60s';

const run = async (mode: string, tokenInEveryAnswer?: number) => {
  const server = await startSecretsEcho(tokenInEveryAnswer === undefined ? {} : { tokenInEveryAnswer });
  const dir = mkdtempSync(join(tmpdir(), 'harness-secrets-'));
  writeFileSync(join(dir, 'profile.yaml'), ECHO_PROFILE);
  const env = { ...process.env, ...ECHO_ENV, BASE_URL: server.origin };
  const selected = only === 'all' ? [] : ['--only', only];
  const args = ['conformance', '--profile', join(dir, 'profile.yaml'), ...selected, '--deadline', deadline];
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
    (done) =>
      execFile(
        '/usr/bin/time',
        ['-f', '%e s %M KB', process.execPath, BIN, ...args, '--report-dir', join(dir, 'reports')],
        { env, maxBuffer: 64 * 1024 * 1024 },
        (error, out, err) =>
          done({ code: typeof error?.code === 'number' ? error.code : 0, stdout: out, stderr: err }),
      ),
  );
  await server.close();
  const measured = stderr.trim().split('\n').at(-1) ?? '';
  if (!existsSync(join(dir, 'reports')))
    throw new Error(`${mode}: no reports (exit ${code}): ${stderr.slice(-2000)}`);
  const texts = filesUnder(join(dir, 'reports'));
  texts.set('stdout', stdout);
  texts.set('stderr', stderr.slice(0, stderr.lastIndexOf(measured)));
  const tokens = Object.fromEntries(server.issued.map((token, i) => [`token ${i}`, token]));
  const found = secretsIn(texts, { ...ECHO_ENV, BASE_URL: server.origin, ...tokens });
  rmSync(dir, { recursive: true, force: true });
  const counts = /^summary: .*$/m.exec(stdout)?.[0] ?? stdout.trim().split('\n').at(-1);
  console.log(
    `${mode} | ${measured} | exit ${code} | ${server.issued.length} tokens issued | secrets found: ${found.length} | ${counts}`,
  );
};

await run('echo, 40 KB / 64 KiB tokens');
await run('echo, and a fresh 8 KB token in every answer', 8 * 1024);
