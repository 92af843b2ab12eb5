// The rehearsal's cluster, run by scripts/rehearse-k8s.ts inside `unshare --net --mount`: a network namespace with
// only loopback (so no server of it can be reached from, or reach, anything outside), and a mount namespace whose
// private /run carries the service-account files the operator reads as an in-cluster client.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseAllDocuments } from 'yaml';
import {
  API_SERVER,
  collectionPath,
  type Kube,
  kubeClient,
  logTail,
  makeAdminToken,
  makeCertificates,
  SERVICE_RANGE,
  startApiServer,
  startEtcd,
  startLogged,
  waitFor,
} from './control-plane.ts';
import { type InitializerPodSpec, runInitializer } from './initializer.ts';
import { type FakeNode, fakeNode, registerNode, setJobStatus, startKubelet } from './node.ts';
import { type ClusterConfig, operatorJobs } from './observed.ts';

const config = JSON.parse(process.argv[2] ?? '{}') as ClusterConfig;
// Mounting over /tmp and /run is safe only in namespaces of our own: refuse to run in the caller's.
if (['mnt', 'net'].some((kind) => readlinkSync(`/proc/self/ns/${kind}`) === config.callerNamespaces[kind])) {
  console.error(
    'harness: scripts/rehearse-k8s/cluster.ts runs only under scripts/rehearse-k8s.ts (unshare --net --mount)',
  );
  process.exit(2);
}
// Read before /tmp is replaced: the manifests may be there (harness load --k8s writes them where it is told).
const documents = [...config.crds, ...config.manifests].map((file) => ({
  file,
  text: readFileSync(file, 'utf8'),
}));
// Opened before /tmp is replaced, so an --out under /tmp still reaches the caller.
const out = openSync(config.out, 'w');
// A private /run (for the service-account files) and a private /tmp: the run's temp files (certificates, etcd's
// data, logs, what the initializer writes to /tmp) vanish with the namespace even if this process is killed. The
// caller's /tmp stays reachable under /run, for binaries cached there (XDG_CACHE_HOME=/tmp/...).
const hostTmp = '/run/harness-host-tmp';
execFileSync('mount', ['-t', 'tmpfs', '-o', 'mode=0755', 'tmpfs', '/run']);
mkdirSync(hostTmp);
execFileSync('mount', ['--bind', tmpdir(), hostTmp]);
execFileSync('mount', ['-t', 'tmpfs', '-o', 'mode=1777', 'tmpfs', tmpdir()]);
const visible = (path: string): string =>
  path.startsWith(`${tmpdir()}/`) ? join(hostTmp, path.slice(tmpdir().length + 1)) : path;
const binaries = {
  etcd: visible(config.binaries.etcd),
  kubeApiserver: visible(config.binaries.kubeApiserver),
  k6Operator: visible(config.binaries.k6Operator),
};
const k6 = visible(config.k6);
const dir = mkdtempSync(join(tmpdir(), 'harness-rehearse-'));
const children: ChildProcess[] = [];
const closers: (() => Promise<unknown>)[] = [];
const elapsed = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

// Once only, whether a signal or the end of the run asks first.
let stopping: Promise<void> | undefined;
const stop = (): Promise<void> => {
  stopping ??= (async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000).then(() => child.kill('SIGKILL'))]);
    }
    rmSync(dir, { recursive: true, force: true });
  })();
  return stopping;
};

let stoppedBy: NodeJS.Signals | undefined;
/** Writes the Jobs seen so far: at the end, or when a signal stops the run part way. */
let writeObserved: (() => void) | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stoppedBy = signal;
    writeObserved?.();
    console.error(`harness: rehearsal stopped by ${signal}; stopping the cluster`);
    void stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

const inClusterFiles = (caCert: string, token: string): void => {
  execFileSync('ip', ['link', 'set', 'lo', 'up']);
  // Every address of the Service range answers locally, as kube-proxy would route it to a runner pod.
  execFileSync('ip', ['route', 'add', 'local', SERVICE_RANGE, 'dev', 'lo', 'table', 'local']);
  const account = '/run/secrets/kubernetes.io/serviceaccount';
  mkdirSync(account, { recursive: true });
  writeFileSync(join(account, 'token'), token, { mode: 0o600 });
  writeFileSync(join(account, 'ca.crt'), readFileSync(caCert));
  writeFileSync(join(account, 'namespace'), 'default');
};

const apply = async (kube: Kube, file: string, text: string): Promise<string[]> => {
  const applied: string[] = [];
  for (const document of parseAllDocuments(text)) {
    const resource = document.toJS() as {
      apiVersion: string;
      kind: string;
      metadata: { name: string };
    } | null;
    if (resource === null) continue;
    const namespaced = resource.kind !== 'CustomResourceDefinition';
    const path = collectionPath(resource.apiVersion, resource.kind, namespaced ? 'default' : undefined);
    const answer = await kube.call('POST', path, resource);
    if (answer.status >= 300) {
      throw new Error(
        `applying ${resource.kind} ${resource.metadata.name} from ${file}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
    applied.push(`${resource.kind}/${resource.metadata.name}`);
    if (resource.kind === 'CustomResourceDefinition') {
      await waitFor(
        `CRD ${resource.metadata.name}`,
        async () => {
          const crd = await kube.call('GET', `${path}/${resource.metadata.name}`);
          const conditions = (crd.body as { status?: { conditions?: { type: string; status: string }[] } })
            .status?.conditions;
          return conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
        },
        30_000,
      );
    }
  }
  return applied;
};

const runStarter = async (command: string[]): Promise<boolean> => {
  // curl on this machine's PATH stands in for the starter image's.
  const [bin, ...args] = command;
  if (bin === undefined) return false;
  const child = spawn(bin, args, { stdio: 'ignore' });
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve(code === 0)).on('error', () => resolve(false)),
  );
};

/** The stage the operator gives the TestRuns (joined with commas, though the manifests hold one). */
const testRunStage = async (kube: Kube): Promise<string> => {
  const testRuns = await kube.call('GET', '/apis/k6.io/v1alpha1/namespaces/default/testruns');
  const items = (testRuns.body as { items?: { status?: { stage?: string } }[] }).items ?? [];
  return items.map((item) => item.status?.stage ?? '').join(',');
};

/**
 * Ends the runner Jobs as a run with one lost runner would (the last one failed, the others succeeded) and reports
 * the stage the operator then gives the TestRun.
 */
const finishRunners = async (kube: Kube, node: FakeNode): Promise<void> => {
  const runners = node.jobs.filter((job) => job.role === 'runner');
  for (const [i, runner] of runners.entries()) {
    const failed = i === runners.length - 1;
    await setJobStatus(kube, runner.name, failed ? { active: 0, failed: 1 } : { active: 0, succeeded: 1 });
  }
  let stage = '';
  await waitFor(
    'the TestRun to finish',
    async () => {
      stage = await testRunStage(kube);
      return stage === 'finished';
    },
    60_000,
  ).catch(() => undefined);
  console.log(
    `harness: with runner ${runners.at(-1)?.name} failed and ${runners.length - 1} succeeded, the operator's TestRun stage is "${stage}"`,
  );
};

const rehearse = async (): Promise<void> => {
  const started = Date.now();
  const certs = makeCertificates(dir);
  const token = makeAdminToken(dir);
  inClusterFiles(certs.caCert, token);
  children.push(startEtcd(dir, binaries.etcd));
  children.push(startApiServer(dir, binaries.kubeApiserver, certs));
  const kube = kubeClient(certs, token);
  closers.push(kube.close);
  await waitFor(
    `kube-apiserver on ${API_SERVER}`,
    async () => {
      const ready = await kube.call('GET', '/readyz');
      if (ready.status !== 200) throw new Error(`/readyz: HTTP ${ready.status}`);
      return true;
    },
    120_000,
  ).catch((error) => {
    throw new Error(
      `${error.message}\netcd:\n${logTail(dir, 'etcd')}\nkube-apiserver:\n${logTail(dir, 'kube-apiserver')}`,
    );
  });
  console.log(`harness: etcd and kube-apiserver ready on 127.0.0.1 in ${elapsed(started)}`);
  await waitFor(
    'namespace default',
    async () => (await kube.call('GET', '/api/v1/namespaces/default')).status === 200,
    30_000,
  );

  const applied: string[] = [];
  for (const { file, text } of documents) applied.push(...(await apply(kube, file, text)));
  console.log(`harness: applied ${applied.join(', ')}`);

  await registerNode(kube);
  const node = fakeNode(kube, {
    starter: runStarter,
    initializer: (spec) => runInitializer(kube, spec as InitializerPodSpec, join(dir, 'initializer'), k6),
  });
  // From the start of the file each time: a signal may come after the end wrote it.
  writeObserved = () => {
    ftruncateSync(out);
    writeSync(out, `${JSON.stringify(operatorJobs(node.jobs, node.serviceIps), null, 2)}\n`, 0);
  };
  closers.push(node.close);
  const kubelet = await startKubelet(certs, node.logs);
  closers.push(() => new Promise((resolve) => kubelet.close(resolve)));

  const operatorStarted = Date.now();
  children.push(
    startLogged(
      dir,
      'k6-operator',
      binaries.k6Operator,
      ['--metrics-bind-address=0', '--health-probe-bind-address=127.0.0.1:8081'],
      {
        ...process.env,
        KUBERNETES_SERVICE_HOST: '127.0.0.1',
        KUBERNETES_SERVICE_PORT: '6443',
      },
    ),
  );
  const done = () =>
    node.jobs.some((job) => job.role === 'starter') &&
    node.statusCalls.some((call) => call.method === 'PATCH');
  const deadline = Date.now() + config.timeoutMs;
  while (!done() && Date.now() < deadline) {
    // The operator gives up for good (a failed initializer, fewer VUs than runners): no point waiting on.
    if ((await testRunStage(kube)) === 'error') break;
    if (children.at(-1)?.exitCode !== null)
      throw new Error(`k6-operator exited:\n${logTail(dir, 'k6-operator')}`);
    await node.tick().catch((error) => {
      if (stoppedBy === undefined) console.error(`harness: ${error.message}`);
    });
    await sleep(250);
  }
  await node.tick();
  for (const job of node.jobs)
    console.log(
      `harness: job ${job.name} (${job.role}) after ${((job.seenAtMs - operatorStarted) / 1000).toFixed(1)} s`,
    );
  const patches = node.statusCalls.filter((call) => call.method === 'PATCH');
  console.log(
    `harness: the starter resumed ${new Set(patches.map((call) => call.service)).size} runner API(s) with PATCH /v1/status`,
  );
  const initializerLog = [...node.logs.values()][0];
  const maxVUs = initializerLog === undefined ? undefined : /"maxVUs":\s*(\d+)/.exec(initializerLog)?.[1];
  console.log(`harness: the initializer's k6 inspect gave maxVUs ${maxVUs ?? '(none)'}`);
  if (!done()) {
    const stage = await testRunStage(kube);
    console.error(
      `harness: no starter (TestRun stage "${stage}", waited up to ${config.timeoutMs / 1000} s); the operator's log:\n${logTail(dir, 'k6-operator', 25)}`,
    );
  }
  if (done()) await finishRunners(kube, node);
  writeObserved();
  console.log(`harness: cluster run took ${elapsed(started)}`);
  process.exitCode = done() ? 0 : 1;
};

try {
  await rehearse();
} catch (error) {
  // Once a signal stops the cluster, what was under way fails for that reason alone.
  if (stoppedBy === undefined) console.error(`harness: rehearsal failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await stop();
}
