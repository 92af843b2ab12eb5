// The k6-operator manifests `harness load --k8s DIR` writes: a ConfigMap with the bundled probe, its spec data, the
// target and the resolved plan; a Secret template that names the keys the runners read and holds no value; and a
// TestRun whose runners wait for one common start and print their summaries to stdout, where `kubectl logs` finds
// them and `harness load merge --from-logs` reads them (no shared volume needed). Secrets never reach these files:
// the runners read them from the Secret the user fills in (the client secrets, and each credential header or
// ${VAR} value of the target, which the ConfigMap holds as a marker: core/sealed-target.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { type LoadSettings, loadEnvName, loadEnvVar } from '../../core/load-env.ts';
import { sealTarget } from '../../core/sealed-target.ts';
import { profileRedactor, profileSecrets } from '../profile/secrets.ts';
import { resolveTarget } from '../profile/target.ts';
import type { Profile } from '../spec/index.ts';
import { k6PlanFor, type PlanOptions } from './plan.ts';
import { SCRIPT, splitProfile } from './run.ts';

/** setup() fetches path ids before it waits for the common start (load/probe.ts gives it the same room). */
const SETUP_ROOM_MS = 120_000;

export const K8S_FILES = {
  configMap: 'configmap.yaml',
  secret: 'secret.template.yaml',
  testRun: 'testrun.yaml',
} as const;

export interface K8sRun {
  readonly profile: Profile;
  readonly plan: PlanOptions;
  /** The TestRun's parallelism: one k6 execution segment per runner pod. */
  readonly instances: number;
  /** The runner image: k6 v2.2.0 as `k6` on PATH and a shell (load/k8s/README.md, "The image"). */
  readonly image: string;
  /** Epoch ms the manifests are written at, and the common start every runner's setup() waits for. */
  readonly generatedAt: number;
  readonly startAt: number;
  /** Fresh per generated TestRun, so a merge can tell this run's summaries from another's. */
  readonly runId: string;
  /** The harness that wrote the manifests and the bundle: each runner's summary records it. */
  readonly harnessVersion: string;
  /** load/probe.ts as one module (bundle.ts). */
  readonly bundle: string;
  /** The TestRun's name; the ConfigMap and Secret are named after it. */
  readonly name?: string;
}

type EnvVar =
  | { name: string; value: string }
  | { name: string; valueFrom: { configMapKeyRef: { name: string; key: string } } }
  | { name: string; valueFrom: { secretKeyRef: { name: string; key: string } } };

const plain = (name: string, value: string): EnvVar => ({ name, value });
const setting = <K extends keyof LoadSettings>(key: K, value: NonNullable<LoadSettings[K]>): EnvVar => {
  const [name, encoded] = loadEnvVar(key, value);
  return plain(name, encoded);
};

/**
 * setup() may wait from the moment the starter resumes the runners until the common start, then fetch path ids: the
 * runners are resumed after the manifests are written, so the time from now to the start bounds that wait.
 */
export const setupTimeoutMs = (run: Pick<K8sRun, 'generatedAt' | 'startAt'>) =>
  Math.max(0, run.startAt - run.generatedAt) + SETUP_ROOM_MS;

const header = (run: K8sRun, what: string) =>
  [
    `# Written by \`harness load --k8s\` (run ${run.runId}): ${what}`,
    '# Regenerate it for every run rather than editing it (load/k8s/README.md).',
  ].join('\n');

const document = (comment: string, body: unknown) =>
  `${comment}\n${stringify(body, { lineWidth: 0, aliasDuplicateObjects: false })}`;

/** The Secret's one key, named as the variable the runners read it into. */
const SECRETS = loadEnvName('secrets');

export const k8sManifests = (run: K8sRun): Record<string, string> => {
  const name = run.name ?? 'harness-load';
  const scriptMap = `${name}-script`;
  const secretName = `${name}-secrets`;
  const { target: clear, secrets } = splitProfile(run.profile);
  // The credential headers and ${VAR} values left in the target go to the Secret too, as markers here.
  const { target, found } = sealTarget(clear, profileSecrets(run.profile));
  const plan = k6PlanFor(resolveTarget(run.profile), run.plan);
  const fromMap = (setting: keyof LoadSettings, key: string): EnvVar => ({
    name: loadEnvName(setting),
    valueFrom: { configMapKeyRef: { name: scriptMap, key } },
  });
  // What the script's init code reads: the initializer (`k6 archive`, `k6 inspect`) needs these and nothing secret.
  const initEnv: EnvVar[] = [
    fromMap('target', 'target.json'),
    fromMap('plan', 'plan.json'),
    setting('targetName', profileRedactor(run.profile).known(run.profile.base_url)),
    setting('instances', run.instances),
    ...(run.profile.timeout_ms === undefined ? [] : [setting('requestTimeoutMs', run.profile.timeout_ms)]),
    // Nothing leaves the cluster but the probe's requests: no extension lookup, no usage report.
    plain('K6_AUTO_EXTENSION_RESOLUTION', 'false'),
    plain('K6_NO_USAGE_REPORT', 'true'),
  ];
  const runnerEnv: EnvVar[] = [
    ...initEnv,
    { name: SECRETS, valueFrom: { secretKeyRef: { name: secretName, key: SECRETS } } },
    setting('startAt', run.startAt),
    setting('runId', run.runId),
    setting('version', run.harnessVersion),
    // Each runner prints its summary between markers on stdout: `kubectl logs` brings it back, no volume needed.
    setting('summaryStdout', 'markers'),
    // The environment outranks the script's own setupTimeout, which is sized for a start seconds away.
    plain('K6_SETUP_TIMEOUT', `${setupTimeoutMs(run)}ms`),
  ];
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: scriptMap },
    data: {
      'probe.js': run.bundle,
      'spec.generated.json': readFileSync(join(SCRIPT, '../lib/spec.generated.json'), 'utf8'),
      'target.json': JSON.stringify(target),
      'plan.json': JSON.stringify(plan),
    },
  };
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secretName },
    type: 'Opaque',
    stringData: {
      [SECRETS]: JSON.stringify(
        Object.fromEntries([
          ...Object.keys(secrets).map((role) => [role, `<client_secret of ${role}>`]),
          ...[...found].map(([key, pointer]) => [key, `<the profile's value at ${pointer}>`]),
        ]),
      ),
    },
  };
  const testRun = {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: { name },
    spec: {
      parallelism: run.instances,
      // One runner per node: runners sharing a node share its CPU, which is what splitting the run avoids.
      separate: true,
      script: { configMap: { name: scriptMap, file: 'probe.js' } },
      quiet: 'true',
      // The runners wait paused until the starter resumes them all; setup() then waits for HARNESS_START_AT.
      paused: 'true',
      initializer: { image: run.image, env: initEnv },
      runner: {
        image: run.image,
        env: runnerEnv,
        resources: { requests: { cpu: '2', memory: '1Gi' }, limits: { memory: '2Gi' } },
      },
    },
  };
  return {
    [K8S_FILES.configMap]: document(
      header(run, 'the bundled probe, its spec data, the target and the plan; no secret.'),
      configMap,
    ),
    [K8S_FILES.secret]: document(
      `${header(run, 'a template; it holds no secret.')}\n` +
        '# Fill in a copy outside any repository with the client_secret of each role and each value it names (a\n' +
        '# credential header or a ${VAR} of the profile), then kubectl apply it.',
      secret,
    ),
    [K8S_FILES.testRun]: document(
      header(
        run,
        `${run.instances} runners, common start ${new Date(run.startAt).toISOString()}; apply before then.`,
      ),
      testRun,
    ),
  };
};
