// `npm run rehearse:k8s`: runs the real k6-operator against a real kube-apiserver on etcd, all built from this
// machine's package sources, applies harness's TestRun, and records the Jobs the operator creates (initializer,
// runners, starter) with their command lines and env. Opt-in: it needs root (for `unshare`), the Go module proxy and
// Debian's package sources, and about 10 minutes the first time; it is in neither CI nor `npm test`.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type ClusterConfig, differences } from './rehearse-k8s/observed.ts';
import { buildControlPlane, SourceUnavailable } from './rehearse-k8s/tools.ts';

const root = resolve(import.meta.dirname, '..');
const fail = (message: string): never => {
  console.error(`harness: ${message}`);
  process.exit(2);
};

/**
 * What harness writes for a 4-runner k6-operator run (`harness load --k8s`) for a made-up staging profile, or, from a
 * harness without --k8s, the hand-kept load/k8s/testrun.yaml.
 */
const defaultManifests = (scratch: string): string => {
  const harness = (args: readonly string[]) =>
    execFileSync(process.execPath, [join(root, 'bin', 'harness.js'), ...args], {
      cwd: root,
      encoding: 'utf8',
    });
  if (!harness(['load', '--help']).includes('--k8s')) return join(root, 'load', 'k8s', 'testrun.yaml');
  const profile = join(scratch, 'profile.yaml');
  writeFileSync(profile, EXAMPLE_PROFILE);
  const folder = join(scratch, 'k8s');
  harness([
    'load',
    '--profile',
    profile,
    '--scenario',
    'transactions',
    '--instances',
    '4',
    '--k8s',
    folder,
    '--image',
    'registry.example.test/harness/k6:v2.2.0',
  ]);
  return folder;
};

// The runners never reach these hosts: no pod runs; only the initializer runs the script's init code, locally.
const EXAMPLE_PROFILE = `base_url: https://staging.example.test
auth_url: https://auth.example.test/oauth2/token
tenant: acme
clients:
  primary: { client_id: harness-load, client_secret: not-a-secret }
requests:
  "POST /event/transaction/v3": { body: { request_uuid: "2f1c7a52-8a8e-4d43-9a53-0c9d0f3b6e11" } }
side_effects: allow
`;

const firstExisting = (...paths: string[]): string | undefined => paths.find((path) => existsSync(path));

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        out: { type: 'string', default: join(root, 'reports', 'k6-operator-rehearsal.json') },
        manifests: { type: 'string' },
        crd: {
          type: 'string',
          default: join(root, 'test', 'fixtures', 'k6-operator', 'k6.io_testruns.yaml'),
        },
        reference: { type: 'string' },
        'timeout-seconds': { type: 'string', default: '180' },
      },
    });
  } catch (error) {
    return fail(`rehearse:k8s: ${(error as Error).message}`);
  }
})();

const timeoutSeconds = Number(values['timeout-seconds']);
if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
  fail('--timeout-seconds must be a positive number');
const scratch = mkdtempSync(join(tmpdir(), 'harness-rehearse-k8s-'));
const removeScratch = () => rmSync(scratch, { recursive: true, force: true });
process.on('exit', removeScratch);
let cluster: ChildProcess | undefined;
// The cluster stops its own children and removes its temp files on either signal; here pass it on and wait, or,
// before there is a cluster, just leave.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (cluster === undefined) process.exit(signal === 'SIGINT' ? 130 : 143);
    cluster.kill(signal);
  });
}
// A file, or a folder such as `harness load --k8s DIR` writes: every YAML file in it.
const manifestsPath = resolve(values.manifests ?? defaultManifests(scratch));
if (!existsSync(manifestsPath)) fail(`--manifests: no file or folder ${manifestsPath}`);
const manifests = statSync(manifestsPath).isDirectory()
  ? readdirSync(manifestsPath)
      .filter((file) => /\.ya?ml$/.test(file))
      .sort()
      .map((file) => join(manifestsPath, file))
  : [manifestsPath];
if (manifests.length === 0) fail(`--manifests: no YAML file in ${manifestsPath}`);
const crd = resolve(values.crd);
if (!existsSync(crd)) fail(`--crd: no file ${crd} (the vendored TestRun CRD)`);
const reference =
  values.reference ?? firstExisting(join(root, 'test', 'fixtures', 'k6-operator', 'runner-jobs.json'));
if (reference !== undefined && !existsSync(reference)) fail(`--reference: no file ${reference}`);
const out = resolve(values.out);
const k6 = join(root, 'tools', 'k6');
if (!existsSync(k6)) fail(`rehearse:k8s runs the initializer with ${k6}: npm run build:k6 first`);

const started = Date.now();
console.log(`harness: applying ${manifests.map((file) => relative(root, file)).join(', ')}`);
const binaries = (() => {
  try {
    return buildControlPlane();
  } catch (error) {
    if (error instanceof SourceUnavailable) return fail(`rehearse:k8s: ${error.message}`);
    throw error;
  }
})();
// The TestRun CRD is the vendored one, the one harness's manifests are checked against; the operator's other CRD
// (PrivateLoadZone) comes from its source, because its manager will not start while a kind it watches is unknown.
const operatorCrds = readdirSync(binaries.operatorCrds)
  .filter((file) => file.endsWith('.yaml') && file !== 'k6.io_testruns.yaml')
  .map((file) => join(binaries.operatorCrds, file));

mkdirSync(dirname(out), { recursive: true });
const config: ClusterConfig = {
  binaries,
  k6,
  crds: [crd, ...operatorCrds],
  manifests,
  out,
  timeoutMs: timeoutSeconds * 1000,
  callerNamespaces: Object.fromEntries(
    ['mnt', 'net'].map((kind) => [kind, readlinkSync(`/proc/self/ns/${kind}`)]),
  ),
};
cluster = spawn(
  'unshare',
  [
    '--net',
    '--mount',
    '--propagation',
    'private',
    '--',
    process.execPath,
    '--import',
    'tsx',
    join(import.meta.dirname, 'rehearse-k8s', 'cluster.ts'),
    JSON.stringify(config),
  ],
  { stdio: 'inherit', cwd: root },
);
const code = await new Promise<number>((done) =>
  cluster.on('exit', (exit) => done(exit ?? 1)).on('error', () => done(1)),
);
if (code !== 0) {
  console.error(`harness: the rehearsal's cluster ended with exit ${code}`);
  process.exit(code);
}
console.log(`harness: wrote ${out}; whole rehearsal ${((Date.now() - started) / 1000).toFixed(1)} s`);
if (reference !== undefined) {
  const found = differences(
    JSON.parse(readFileSync(out, 'utf8')),
    JSON.parse(readFileSync(reference, 'utf8')),
  );
  console.log(`harness: ${found.length} difference(s) from ${reference}`);
  for (const line of found) console.log(`  ${line}`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
