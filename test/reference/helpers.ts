// Shared test plumbing: a reference server on a fake clock and a small client for it.
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request } from 'undici';
import { afterEach } from 'vitest';
import { type Clock, REAL_CLOCK } from '../../src/clock.ts';
import {
  type ReferenceServerOptions,
  type RunningReferenceServer,
  startReferenceServer,
} from '../../src/reference/index.ts';
import {
  type ClientRole,
  ENDPOINTS,
  type EndpointKey,
  GRANT_TYPE,
  observabilityEndpoint,
  scopeFor,
  type TokenRequestField,
} from '../../src/spec/index.ts';

export const FORM = 'application/x-www-form-urlencoded';

export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the server sent
  readonly json: any;
}

/** A clock the test moves by hand; a held request still rechecks on real timers, reading the hand-moved time. */
export interface FakeClock extends Clock {
  advance(ms: number): void;
}

export const fakeClock = (start = 1_767_225_600_000): FakeClock => {
  let t = start;
  return {
    now: () => t,
    sleep: REAL_CLOCK.sleep,
    advance: (ms) => {
      t += ms;
    },
  };
};

export interface CallOptions {
  role?: ClientRole;
  /** A token to send as is; null sends no Authorization header. */
  token?: string | null;
  /** A raw Authorization header value. */
  authorization?: string;
  id?: string;
  body?: string;
  method?: string;
  headers?: Record<string, string>;
}

export const pathOf = (key: EndpointKey, id = 'unknown-id'): string => {
  const spec = ENDPOINTS.find((e) => e.key === key) ?? observabilityEndpoint(key);
  return spec.path.replace(/\{[^}]+\}/, id);
};

const reply = async (response: Awaited<ReturnType<typeof request>>): Promise<Reply> => {
  const text = await response.body.text();
  const type = String(response.headers['content-type'] ?? '');
  return {
    status: response.statusCode,
    headers: response.headers,
    text,
    json: type.startsWith('application/json') ? JSON.parse(text) : undefined,
  };
};

export class TestServer {
  private readonly tokens = new Map<ClientRole, { token: string; expiresAt: number }>();

  /** Its own connection pool: a later server may reuse this port, and must not inherit stale sockets. */
  readonly dispatcher = new Agent();

  constructor(
    readonly server: RunningReferenceServer,
    readonly clock: FakeClock,
  ) {}

  async close(): Promise<void> {
    await this.dispatcher.close();
    await this.server.close();
  }

  async raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    const method = (init.method ?? 'GET') as 'GET';
    return reply(
      await request(`${this.server.baseUrl}${path}`, { ...init, method, dispatcher: this.dispatcher }),
    );
  }

  tokenReply(fields: Record<string, string> | string, contentType: string | null = FORM): Promise<Reply> {
    const body = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
    const headers: Record<string, string> = contentType === null ? {} : { 'content-type': contentType };
    return this.raw('/oauth2/token', { method: 'POST', headers, body });
  }

  fields(role: ClientRole = 'primary'): Record<TokenRequestField, string> {
    const client = this.server.clients[role];
    return {
      grant_type: GRANT_TYPE,
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: scopeFor(client.tenant),
    };
  }

  /** A token request in the encoding the server takes: JSON under token-json-only, so other rules stay testable. */
  tokenAttempt(fields: Record<string, string>): Promise<Reply> {
    return this.server.options.fault === 'token-json-only'
      ? this.tokenReply(JSON.stringify(fields), 'application/json')
      : this.tokenReply(fields);
  }

  async newToken(role: ClientRole = 'primary'): Promise<string> {
    const answer = await this.tokenAttempt(this.fields(role));
    if (answer.status !== 200) throw new Error(`token request failed: ${answer.status} ${answer.text}`);
    return answer.json.access_token as string;
  }

  /** A token for the role, reused while it is safely valid (and the server lets tokens be reused). */
  async token(role: ClientRole = 'primary'): Promise<string> {
    const cached = this.tokens.get(role);
    const reusable = this.server.options.fault !== 'token-single-use';
    if (cached && reusable && this.clock.now() < cached.expiresAt) return cached.token;
    const token = await this.newToken(role);
    const lifetimeMs = this.server.options.tokenLifetimeSeconds * 1000;
    this.tokens.set(role, { token, expiresAt: this.clock.now() + lifetimeMs / 2 });
    return token;
  }

  async call(key: EndpointKey, options: CallOptions = {}): Promise<Reply> {
    const [method, path] = [key.slice(0, key.indexOf(' ')), pathOf(key, options.id)];
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    else if (options.token !== null) {
      headers.authorization = `Bearer ${options.token ?? (await this.token(options.role))}`;
    }
    const body = options.body ?? (method === 'POST' ? '{}' : undefined);
    return this.raw(path, {
      method: options.method ?? method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
  }

  /** Sends `n` calls at the current (frozen) time, a few at a time; returns their statuses in order. */
  async burst(n: number, key: EndpointKey, options: CallOptions = {}): Promise<number[]> {
    const statuses: number[] = [];
    if (options.token === undefined && options.authorization === undefined) await this.token(options.role);
    for (let i = 0; i < n; i += 25) {
      const batch = Array.from({ length: Math.min(25, n - i) }, () => this.call(key, options));
      for (const answer of await Promise.all(batch)) statuses.push(answer.status);
    }
    return statuses;
  }
}

/** Starts servers on a fake clock (unless `clock` is given) and closes them after each test. */
export const useServers = (): ((options?: ReferenceServerOptions) => Promise<TestServer>) => {
  const running: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.close()));
  });
  return async (options = {}) => {
    const clock = fakeClock();
    const server = await startReferenceServer({ clock, ...options });
    const test = new TestServer(server, clock);
    running.push(test);
    return test;
  };
};

export const count = (statuses: readonly number[], status: number): number =>
  statuses.filter((s) => s === status).length;
