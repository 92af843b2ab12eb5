// `harness certify` end to end: a real conformance run and `load --scenario all` into one signed archive, which
// `harness verify` accepts as written and refuses once any byte of any file in it changes.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { tarGz } from '../../src/certify/tar.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { untarGz } from '../certify/untar.ts';
import { type Finished, harness, profileFor, secretsOf, signingKeys, spawnHarness, tmp } from './run.ts';

const CERTIFY_MS = 300_000;
const dir = tmp();
const { key, publicKey } = signingKeys(dir);

const verify = (archive: string) => harness(['verify', archive, '--public-key', publicKey]);
const manifestOf = async (archive: string) =>
  JSON.parse(
    (await untarGz(readFileSync(archive))).find((e) => e.path === 'manifest.json')!.data.toString('utf8'),
  );

const embeddedArchive = join(dir, 'embedded.tgz');
const embeddedReports = tmp();
const profileArchive = join(dir, 'profile.tgz');
let server: RunningReferenceServer;
let embedded: { status: number | null; output: string };
let withProfile: Finished;
// The two certify runs overlap where it is safe: the profile run's conformance (whose grades no test here asserts)
// waits out its windows beside the embedded run's k6 phases, while the embedded run's conformance, whose exit code
// is asserted, runs alone. One after the other they were the longest wait of the suite.
beforeAll(async () => {
  server = await startReferenceServer({ minuteMs: 2000, tokenLifetimeSeconds: 5 });
  const { file, env } = profileFor(server);
  const first = spawnHarness([
    'certify',
    '--key',
    key,
    '--out',
    embeddedArchive,
    '--report-dir',
    embeddedReports,
  ]);
  await first.waitFor(/^harness certify: load --scenario all/m).catch(() => undefined);
  const [{ code }, second] = await Promise.all([
    first.exited,
    harness(
      ['certify', '--profile', file, '--key', key, '--out', profileArchive, '--report-dir', tmp()],
      env,
      CERTIFY_MS,
    ),
  ]);
  embedded = { status: code, output: first.output() };
  withProfile = second;
}, CERTIFY_MS);
afterAll(() => server.close());

describe('harness certify with no profile (the embedded server)', () => {
  const archive = embeddedArchive;

  it('writes an archive that verify accepts, marked not certifiable', async () => {
    // The embedded server never certifies: exit 1, the reasons on stderr, the archive written as evidence.
    expect(embedded.status, embedded.output).toBe(1);
    expect(embedded.output).toMatch(
      /^harness certify: this run cannot certify the target: ran against the embedded reference server, not a target; /m,
    );
    const verified = await verify(archive);
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(
      /^verified: the manifest is signed by the key with sha256 [0-9a-f]{64}, and all \d+ files match it$/m,
    );
    expect(verified.stdout).toMatch(
      /^certifiable: no: ran against the embedded reference server, not a target/m,
    );
    const manifest = await manifestOf(archive);
    expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(
      expect.arrayContaining([
        'SPEC.md',
        'conformance/conformance.json',
        'conformance/conformance.md',
        'load/load-all.xml',
      ]),
    );
    expect(manifest.conformance.exitCode).toBe(0);
    expect(manifest.k6).toMatch(/^k6 v2\./);
    // The phases load judged, counted as the archive's JUnit file totals them.
    const junit = (await untarGz(readFileSync(archive))).find((e) => e.path === 'load/load-all.xml')!;
    const [, tests, failures, errors] = /<testsuites [^>]*tests="(\d+)" failures="(\d+)" errors="(\d+)"/
      .exec(junit.data.toString('utf8'))!
      .map(Number);
    expect(manifest.load.summary).toBe(
      `exit ${manifest.load.exitCode}: ${tests} phases: ${tests! - failures! - errors!} passed, ${failures} failed, ${errors} without a verdict, 0 skipped`,
    );
  });

  it('prints report paths that still exist once it has ended, and opens the archive with an index page', async () => {
    // Each run's folder and the page to open there.
    const printed = [...embedded.output.matchAll(/^reports: (\S+\/) \(open (index\.html)\)$/gm)].map(
      (m) => `${m[1]}${m[2]}`,
    );
    expect(printed).toHaveLength(2);
    for (const file of printed) expect(existsSync(file), file).toBe(true);
    expect(printed.every((file) => file.startsWith(embeddedReports))).toBe(true);
    const index = (await untarGz(readFileSync(archive))).find((e) => e.path === 'index.html');
    const links = [...index!.data.toString('utf8').matchAll(/<a href="([^"]+)">/g)].map((m) => m[1]);
    expect(links.slice(0, 2)).toEqual(['conformance/conformance.html', 'load/load-all-summary.html']);
    expect(links).toContain('SPEC.md');
    expect((await manifestOf(archive)).files.map((f: { path: string }) => f.path)).toContain('index.html');
  });

  it('fails verification with exit 1 naming the first file changed', async () => {
    const entries = await untarGz(readFileSync(archive));
    for (const path of ['conformance/conformance.json', 'manifest.json']) {
      const changed = join(dir, `changed-${path.replace('/', '-')}.tgz`);
      const repacked = entries.map((e) => {
        if (e.path !== path) return e;
        const data = Buffer.from(e.data);
        data[data.length >> 1] = data[data.length >> 1]! ^ 1;
        return { path, data };
      });
      writeFileSync(changed, tarGz(repacked, new Date()));
      const verified = await verify(changed);
      expect(verified.status).toBe(1);
      expect(verified.stdout).toMatch(new RegExp(`^verification failed: ${path.replace('.', '\\.')}: `));
    }
  });
});

describe('harness certify with a profile', () => {
  const archive = profileArchive;

  it('keeps every client secret and every issued token out of every file of the archive', async () => {
    expect((await verify(archive)).status).toBe(0);
    const secrets = secretsOf(server);
    expect(secrets.length).toBeGreaterThan(10);
    for (const entry of await untarGz(readFileSync(archive))) {
      const text = entry.data.toString('utf8');
      for (const secret of secrets) expect(text.includes(secret), `${entry.path} holds a secret`).toBe(false);
    }
    for (const text of [withProfile.stdout, withProfile.stderr]) {
      for (const secret of secrets) expect(text.includes(secret)).toBe(false);
    }
    const manifest = await manifestOf(archive);
    expect(manifest.target.embedded).toBe(false);
    expect(manifest.profile.clients.primary).toEqual({ client_id: server.clients.primary.client_id });
    expect(manifest.notCertifiable).toContain('profile sets the token lifetime to 5 s');
  });

  it('refuses a profile without all four clients or keeping harness off an endpoint, and a key that is not Ed25519, before running anything', async () => {
    const { file, env } = profileFor(server);
    const partial = join(tmp(), 'partial.yaml');
    const profile = server.profile();
    writeFileSync(partial, stringify({ ...profile, clients: { primary: profile.clients.primary } }));
    /** A certify run that must stop on its input, before it sends anything or writes `out`. */
    const refused = (profileFile: string, out: string) =>
      harness([
        'certify',
        '--profile',
        profileFile,
        '--key',
        key,
        '--out',
        join(dir, out),
        '--report-dir',
        tmp(),
      ]);
    const missing = await refused(partial, 'x.tgz');
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe(
      `harness: ${partial}: certify runs every check, which needs clients.same_tenant, clients.restricted, clients.other_tenant`,
    );
    const denying = join(tmp(), 'deny.yaml');
    writeFileSync(denying, stringify({ ...profile, side_effects: ['POST /api/rules/execute'] }));
    const denied = await refused(denying, 'z.tgz');
    expect(denied.status).toBe(2);
    expect(denied.stderr.trim()).toBe(
      `harness: ${denying}: certify runs every check, which calls every endpoint; side_effects (or where ids come from) keeps harness off POST /event/transaction/v3, POST /api/rules/rerun, POST /api/transactions/batch/generate-upload-url, GET /api/transactions/batch/status/{batch_id}, GET /api/transactions/batch/validation-result/{batch_id}`,
    );
    const rsa = join(dir, 'rsa.pem');
    execFileSync('openssl', [
      'genpkey',
      '-algorithm',
      'rsa',
      '-pkeyopt',
      'rsa_keygen_bits:1024',
      '-out',
      rsa,
    ]);
    const wrongKey = await harness(
      ['certify', '--profile', file, '--key', rsa, '--out', join(dir, 'y.tgz'), '--report-dir', tmp()],
      env,
    );
    expect(wrongKey.status).toBe(2);
    expect(wrongKey.stderr.trim()).toMatch(/^harness: --key .*rsa\.pem: an Ed25519 key is needed, not rsa/);
  });
});
