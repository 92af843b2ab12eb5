// Plays what a real cluster's other parts would do for the operator's Jobs, since there is no container runtime
// here: the Job controller (one Pod per Job, bound to one fake Node), the kubelet (pod phases, and the initializer's
// log, which the operator reads through the API server), and the runners' k6 REST API behind their Service IPs.

import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Certificates, Kube } from './control-plane.ts';

export const NODE_NAME = 'rehearse-node';
const KUBELET_PORT = 10250;

export interface ObservedJob {
  readonly name: string;
  readonly role: 'initializer' | 'runner' | 'starter' | 'other';
  readonly spec: { template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec } };
  readonly seenAtMs: number;
}

export interface PodSpec {
  containers: { name: string; command?: string[]; env?: unknown[] }[];
  [field: string]: unknown;
}

interface Item {
  metadata: { name: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
}

export interface StatusCall {
  readonly service: string;
  readonly method: string;
  readonly body: string;
}

const roleOf = (name: string, labels: Record<string, string>): ObservedJob['role'] => {
  if (labels.runner === 'true') return 'runner';
  if (name.endsWith('-initializer')) return 'initializer';
  if (name.endsWith('-starter')) return 'starter';
  return 'other';
};

export const registerNode = async (kube: Kube): Promise<void> => {
  const created = await kube.call('POST', '/api/v1/nodes', { metadata: { name: NODE_NAME } });
  if (created.status >= 300) throw new Error(`creating node ${NODE_NAME}: HTTP ${created.status}`);
  const status = {
    status: {
      addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: KUBELET_PORT } },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'stub kubelet' }],
    },
  };
  const patched = await kube.call(
    'PATCH',
    `/api/v1/nodes/${NODE_NAME}/status`,
    status,
    'application/merge-patch+json',
  );
  if (patched.status >= 300) throw new Error(`setting node status: HTTP ${patched.status}`);
};

/** The kubelet's log endpoint on 127.0.0.1, as the API server calls it for `GET .../pods/NAME/log`. */
export const startKubelet = async (
  certs: Certificates,
  logs: ReadonlyMap<string, string>,
): Promise<Server> => {
  const server = createHttpsServer(
    { cert: readFileSync(certs.serverCert), key: readFileSync(certs.serverKey) },
    (req, res) => {
      const pod = /^\/containerLogs\/[^/]+\/([^/]+)\/k6(\?|$)/.exec(req.url ?? '')?.[1];
      const log = pod === undefined ? undefined : logs.get(pod);
      if (log === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(log);
    },
  );
  await new Promise<void>((resolve) => server.listen(KUBELET_PORT, '127.0.0.1', resolve));
  return server;
};

/** A paused k6's REST API on one Service IP: what the operator polls before it creates the starter. */
const startRunnerApi = async (service: string, ip: string, calls: StatusCall[]): Promise<Server> => {
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url !== '/v1/status') {
        res.writeHead(404).end();
        return;
      }
      calls.push({ service, method: req.method ?? '', body });
      const paused = !(req.method === 'PATCH' && body.includes('"paused":false'));
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          data: { type: 'status', id: 'default', attributes: { paused, running: !paused } },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(6565, ip, resolve));
  return server;
};

const setPodPhase = async (kube: Kube, pod: string, phase: string): Promise<void> => {
  const answer = await kube.call(
    'PATCH',
    `/api/v1/namespaces/default/pods/${pod}/status`,
    { status: { phase } },
    'application/merge-patch+json',
  );
  if (answer.status >= 300) throw new Error(`setting pod ${pod} ${phase}: HTTP ${answer.status}`);
};

/** What the Job controller would write; the operator counts a runner Job finished once it has no active pod. */
export const setJobStatus = async (
  kube: Kube,
  job: string,
  status: Record<string, unknown>,
): Promise<void> => {
  const answer = await kube.call(
    'PATCH',
    `/apis/batch/v1/namespaces/default/jobs/${job}/status`,
    { status },
    'application/merge-patch+json',
  );
  if (answer.status >= 300)
    throw new Error(`setting job ${job} status: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
};

/** What the node runs for real: the initializer (its stdout is the pod's log) and the starter. */
export interface ContainerRunner {
  readonly initializer: (spec: PodSpec) => Promise<{ succeeded: boolean; stdout: string }>;
  readonly starter: (command: string[]) => Promise<boolean>;
}

export interface FakeNode {
  readonly jobs: ObservedJob[];
  /** The k6 container's log by pod name. */
  readonly logs: Map<string, string>;
  readonly statusCalls: StatusCall[];
  /** Service name by cluster IP, for every runner Service seen. */
  readonly serviceIps: Map<string, string>;
  /** One pass: a Pod for every new Job, a REST API for every new runner Service. */
  readonly tick: () => Promise<void>;
  readonly close: () => Promise<void>;
}

export const fakeNode = (kube: Kube, run: ContainerRunner): FakeNode => {
  const jobs: ObservedJob[] = [];
  const logs = new Map<string, string>();
  const statusCalls: StatusCall[] = [];
  const servers: Server[] = [];
  const serviceIps = new Map<string, string>();

  const startPod = async (job: ObservedJob): Promise<void> => {
    const pod = `${job.name}-rehearse`;
    const created = await kube.call('POST', '/api/v1/namespaces/default/pods', {
      metadata: { name: pod, labels: job.spec.template.metadata?.labels ?? {} },
      spec: { ...job.spec.template.spec, nodeName: NODE_NAME },
    });
    if (created.status >= 300)
      throw new Error(`creating pod ${pod}: HTTP ${created.status} ${JSON.stringify(created.body)}`);
    if (job.role === 'runner') {
      await setJobStatus(kube, job.name, { active: 1, startTime: new Date().toISOString() });
      return setPodPhase(kube, pod, 'Running');
    }
    if (job.role === 'starter') {
      const command = job.spec.template.spec.containers[0]?.command ?? [];
      return setPodPhase(kube, pod, (await run.starter(command)) ? 'Succeeded' : 'Failed');
    }
    if (job.role === 'initializer') {
      // A kubelet would leave the pod pending; failing it lets the operator give up at once, and says why here.
      const { succeeded, stdout } = await run.initializer(job.spec.template.spec).catch((error) => {
        console.error(`harness: the initializer could not run: ${(error as Error).message}`);
        return { succeeded: false, stdout: '' };
      });
      logs.set(pod, stdout);
      return setPodPhase(kube, pod, succeeded ? 'Succeeded' : 'Failed');
    }
    return setPodPhase(kube, pod, 'Succeeded');
  };

  const tick = async (): Promise<void> => {
    const list = await kube.call('GET', '/apis/batch/v1/namespaces/default/jobs');
    for (const item of (list.body as { items?: Item[] }).items ?? []) {
      if (jobs.some((job) => job.name === item.metadata.name)) continue;
      const job: ObservedJob = {
        name: item.metadata.name,
        role: roleOf(item.metadata.name, item.metadata.labels ?? {}),
        spec: item.spec as ObservedJob['spec'],
        seenAtMs: Date.now(),
      };
      jobs.push(job);
      await startPod(job);
    }
    const serviceList = await kube.call(
      'GET',
      '/api/v1/namespaces/default/services?labelSelector=runner%3Dtrue',
    );
    for (const item of (serviceList.body as { items?: Item[] }).items ?? []) {
      const ip = item.spec.clusterIP;
      if (typeof ip !== 'string' || serviceIps.has(ip)) continue;
      serviceIps.set(ip, item.metadata.name);
      servers.push(await startRunnerApi(item.metadata.name, ip, statusCalls));
    }
  };

  const close = async (): Promise<void> => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  };
  return { jobs, logs, statusCalls, serviceIps, tick, close };
};
