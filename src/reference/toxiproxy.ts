// Toxiproxy as the reference server's network (`harness serve --network`, and the tests' test bed): loopback answers in
// well under a millisecond, which hides every effect of round trips on a limit measurement (a burst spread over a
// window edge, a 429 seen one round trip late). A proxy with latency toxics in both directions gives a local server the
// round trips of a real network.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { spawnGroup } from '../child-group.ts';
import type { Profile } from '../spec/index.ts';
import { type ReferenceServerOptions, type RunningReferenceServer, startReferenceServer } from './index.ts';
import {
  findToxiproxy,
  HOW_TO_GET_TOXIPROXY,
  TOXIPROXY_BINARY_NAME,
  toolsToxiproxyPath,
} from './toxiproxy-binary.ts';

export { findToxiproxy } from './toxiproxy-binary.ts';

export const NETWORK_CONDITIONS = ['lan', 'region', 'far'] as const;
export type NetworkCondition = (typeof NETWORK_CONDITIONS)[number];

/** Delay added to each direction, so a round trip takes about twice `latencyMs`. */
export interface OneWayLatency {
  readonly latencyMs: number;
  readonly jitterMs: number;
}

export const CONDITIONS: Readonly<Record<NetworkCondition, OneWayLatency | undefined>> = {
  lan: undefined,
  region: { latencyMs: 40, jitterMs: 5 },
  far: { latencyMs: 100, jitterMs: 30 },
};

const HOST = '127.0.0.1';
const STREAMS = ['upstream', 'downstream'] as const;

export interface Upstream {
  readonly host: typeof HOST;
  readonly port: number;
}

export interface Proxy {
  readonly name: string;
  readonly port: number;
  /** `http://127.0.0.1:PORT`, the proxy's side of the upstream. */
  readonly origin: string;
  /** The proxy's origin followed by `path` (which starts with `/`). */
  url(path: string): string;
  readonly condition: NetworkCondition;
  /** Applies to connections already open as well as new ones. */
  setCondition(condition: NetworkCondition): Promise<void>;
  remove(): Promise<void>;
}

export interface Toxiproxy {
  /** The control API, `http://127.0.0.1:PORT`. */
  readonly apiUrl: string;
  /** The toxiproxy-server process, so a caller can see it is gone after close(). */
  readonly pid: number;
  proxy(name: string, upstream: Upstream, condition?: NetworkCondition): Promise<Proxy>;
  /** Ends the process (and with it every proxy). */
  close(): Promise<void>;
}

const freePort = async (): Promise<number> => {
  const server = createServer();
  server.listen(0, HOST);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
};

const api = async (apiUrl: string, method: string, path: string, body?: unknown): Promise<unknown> => {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`toxiproxy: ${method} ${path} answered ${res.status}: ${text.trim()}`);
  return text === '' ? undefined : JSON.parse(text);
};

const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

const STARTUP_MS = 10_000;

/** Resolves once the API answers; rejects when the process exits first (its port was taken) or never answers. */
const waitForApi = async (child: ChildProcess, apiUrl: string, output: () => string): Promise<void> => {
  const deadline = performance.now() + STARTUP_MS;
  while (performance.now() < deadline) {
    if (exited(child)) throw new Error(`toxiproxy exited at start: ${output()}`);
    const answered = await fetch(`${apiUrl}/version`).then(
      (res) => res.ok,
      () => false,
    );
    // Alive after answering: the answer came from this process, not from whoever else holds a reused port.
    if (answered && !exited(child)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill();
  throw new Error(`toxiproxy did not answer on ${apiUrl} within ${STARTUP_MS} ms: ${output()}`);
};

const spawnOnFreePort = async (binary: string): Promise<{ child: ChildProcess; apiUrl: string }> => {
  const port = await freePort();
  // LOG_LEVEL=error: toxiproxy logs every API call and connection at debug level otherwise. A run that dies without
  // close() (a signal, an exception) must not leave the proxy running: spawnGroup kills it on exit.
  const child = spawnGroup(binary, ['-host', HOST, '-port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'error' },
  });
  let tail = '';
  const keepTail = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-2000);
  };
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);
  const apiUrl = `http://${HOST}:${port}`;
  await waitForApi(child, apiUrl, () => tail.trim() || '(no output)');
  return { child, apiUrl };
};

const createProxy = async (
  apiUrl: string,
  name: string,
  upstream: Upstream,
  initial: NetworkCondition,
): Promise<Proxy> => {
  if (upstream.host !== HOST) throw new RangeError(`upstream host ${upstream.host} is not ${HOST}`);
  const created = (await api(apiUrl, 'POST', '/proxies', {
    name,
    listen: `${HOST}:0`,
    upstream: `${HOST}:${upstream.port}`,
  })) as { listen: string };
  const port = Number(created.listen.slice(created.listen.lastIndexOf(':') + 1));
  const origin = `http://${HOST}:${port}`;
  const path = `/proxies/${encodeURIComponent(name)}`;
  let condition: NetworkCondition = 'lan';

  const setCondition = async (next: NetworkCondition): Promise<void> => {
    // Toxics change on live links too, so connections kept alive across the switch feel the new condition.
    if (CONDITIONS[condition]) {
      for (const stream of STREAMS) await api(apiUrl, 'DELETE', `${path}/toxics/latency_${stream}`);
    }
    condition = 'lan';
    const latency = CONDITIONS[next];
    if (latency) {
      const attributes = { latency: latency.latencyMs, jitter: latency.jitterMs };
      for (const stream of STREAMS) {
        await api(apiUrl, 'POST', `${path}/toxics`, {
          name: `latency_${stream}`,
          type: 'latency',
          stream,
          attributes,
        });
      }
    }
    condition = next;
  };

  await setCondition(initial);
  return {
    name,
    port,
    origin,
    url: (pathAndQuery) => `${origin}${pathAndQuery}`,
    get condition() {
      return condition;
    },
    setCondition,
    remove: async () => {
      await api(apiUrl, 'DELETE', path);
    },
  };
};

/** Starts toxiproxy-server on a free loopback port. Throws, saying how to build it, when the binary is missing. */
export const startToxiproxy = async (): Promise<Toxiproxy> => {
  const binary = findToxiproxy();
  if (!binary) {
    throw new Error(
      `${TOXIPROXY_BINARY_NAME} not found: harness runs TOXIPROXY_BIN if set, else ${toolsToxiproxyPath()}; ${HOW_TO_GET_TOXIPROXY}`,
    );
  }
  // A port found free can be taken before toxiproxy binds it; a few tries make that race harmless.
  let started: { child: ChildProcess; apiUrl: string } | undefined;
  for (let attempt = 1; !started; attempt++) {
    started = await spawnOnFreePort(binary).catch((error: Error) => {
      if (attempt >= 3) throw error;
      return undefined;
    });
  }
  const { child, apiUrl } = started;
  return {
    apiUrl,
    pid: child.pid!,
    proxy: (name, upstream, condition = 'lan') => createProxy(apiUrl, name, upstream, condition),
    close: async () => {
      if (exited(child)) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      await gone;
    },
  };
};

export interface ReferenceBehindProxy {
  readonly server: RunningReferenceServer;
  readonly toxiproxy: Toxiproxy;
  readonly proxy: Proxy;
  /** The server's profile with `base_url` and `auth_url` on the proxy, so every request crosses it. */
  readonly profile: Profile;
  /** Stops toxiproxy and the server. */
  close(): Promise<void>;
}

/** The reference server behind a proxy with `condition`; its token endpoint shares the base URL, so one proxy serves both. */
export const startReferenceBehind = async (
  condition: NetworkCondition,
  options?: ReferenceServerOptions,
): Promise<ReferenceBehindProxy> => {
  const server = await startReferenceServer(options);
  let toxiproxy: Toxiproxy | undefined;
  try {
    toxiproxy = await startToxiproxy();
    const proxy = await toxiproxy.proxy('reference', { host: HOST, port: server.options.port }, condition);
    const running = toxiproxy;
    return {
      server,
      toxiproxy,
      proxy,
      profile: {
        ...server.profile(),
        base_url: proxy.origin,
        auth_url: proxy.url(new URL(server.authUrl).pathname),
      },
      close: async () => {
        await running.close();
        await server.close();
      },
    };
  } catch (error) {
    await toxiproxy?.close();
    await server.close();
    throw error;
  }
};
