// `harness load --k8s DIR`: instead of running k6 here, writes the k6-operator manifests that run the same probe
// across pods (src/k6-driver/k8s.ts), and says what to do next. The runners' summaries come back through `kubectl logs`
// and `harness load merge --from-logs` grades them (load/k8s/README.md walks through it).
import { randomUUID } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../errors.ts';
import { bundleProbe } from '../k6-driver/bundle.ts';
import { K8S_FILES, k8sManifests } from '../k6-driver/k8s.ts';
import { k6PlanFor } from '../k6-driver/plan.ts';
import { loadProfile } from '../profile/read.ts';
import { resolveTarget } from '../profile/target.ts';
import { harnessVersion } from '../version.ts';
import type { LoadOptions } from './commands.ts';
import { PASSED } from './exit-codes.ts';
import type { LoadCommandResult } from './load-result.ts';
import { withNetworkFlags } from './network.ts';

/** Room to apply the manifests and for the pods to be scheduled, pull the image and start k6 before the start. */
const DEFAULT_START_IN_MS = 180_000;

/** Flags that shape a run on this machine, or reach nothing in a pod: each would be silently ignored. */
const refused = (options: LoadOptions): string | undefined => {
  if (options.k8s === undefined)
    return options.image !== undefined || options.startIn !== undefined
      ? '--image and --start-in apply with --k8s only'
      : undefined;
  if (!options.profile) return '--k8s needs --profile: pods cannot reach the embedded server on this machine';
  if (options.fault || Object.keys(options.limit).length > 0)
    return '--fault and --limit apply to the embedded server only (no --profile)';
  if (options.list) return '--list prints the scenarios and exits: drop --k8s or --list';
  if (options.strict) return '--strict grades a run: give it to `harness load merge`, not --k8s';
  if (options.image === undefined) return '--k8s needs --image: a k6 v2.2.0 image (load/k8s/README.md)';
  if (options.ca || options.cert || options.key || options.insecure)
    return '--k8s: --ca, --cert, --key and --insecure name files and settings of this machine, not of the pods';
  return undefined;
};

const directory = (dir: string) => {
  try {
    if (!statSync(dir).isDirectory()) throw new InputError(`--k8s ${dir}: not a directory`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
  }
  return resolve(dir);
};

/** Checks the flags that concern --k8s; false when it was not given (the run happens here). */
export const k8sRequested = (options: LoadOptions): boolean => {
  const why = refused(options);
  if (why !== undefined) throw new InputError(why);
  return options.k8s !== undefined;
};

export const writeK8s = async (options: LoadOptions): Promise<LoadCommandResult> => {
  const profile = withNetworkFlags(loadProfile(options.profile!), options);
  if (profile.tls !== undefined)
    throw new InputError(`--k8s: the profile's tls names files of this machine, not of the pods`);
  const plan = {
    scenarios: options.scenario,
    ...(options.duration ? { durationMs: options.duration } : {}),
    ...(options.rate ? { rate: options.rate } : {}),
  };
  // What the input gets wrong exits 2 before anything is written.
  const { totalMs } = k6PlanFor(resolveTarget(profile), plan);
  const dir = directory(options.k8s!);
  const generatedAt = Date.now();
  const startAt = generatedAt + (options.startIn ?? DEFAULT_START_IN_MS);
  const runId = randomUUID();
  const files = k8sManifests({
    profile,
    plan,
    instances: options.instances,
    image: options.image!,
    generatedAt,
    startAt,
    runId,
    harnessVersion: harnessVersion(),
    bundle: await bundleProbe(),
  });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  const at = (file: string) => join(dir, file);
  console.log(
    `harness load --k8s: ${options.instances} runners, run ${runId}, start ${new Date(startAt).toISOString()}, ` +
      `about ${Math.ceil(totalMs / 1000)} s from then`,
  );
  console.log(`wrote: ${Object.keys(files).map(at).join(', ')}`);
  console.log(
    `next: fill in a copy of ${K8S_FILES.secret} and apply it, then before the start ` +
      `kubectl apply -f ${at(K8S_FILES.configMap)} -f ${at(K8S_FILES.testRun)} (load/k8s/README.md)`,
  );
  return { exitCode: PASSED, dir, files: Object.keys(files).map(at) };
};
