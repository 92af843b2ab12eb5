import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { ApiClient, HttpClient, TokenManager } from '../../src/client/index.ts';
import { loadProfile } from '../../src/profile/read.ts';
import { FAULTS } from '../../src/reference/index.ts';
import type { Profile } from '../../src/spec/index.ts';
import { hasTool, needing } from '../support/tools.ts';
import { asPrinted, harness, SIDE_BY_SIDE, startHarness } from './run.ts';

describe('harness serve', () => {
  const profileFile = join(mkdtempSync(join(tmpdir(), 'harness-serve-')), 'profile.yaml');
  let server: Awaited<ReturnType<typeof startHarness>>;
  let profile: Profile;

  beforeAll(async () => {
    server = await startHarness(
      ['serve', '--minute-ms', '2000', '--profile-out', profileFile],
      /stop with Ctrl-C/,
    );
    profile = loadProfile(profileFile);
  });
  afterAll(() => {
    server.child.kill('SIGTERM');
  });

  it('prints the profile alone on stdout, as YAML that parses to the file it wrote', async () => {
    // stdout and stderr reach this process separately: the profile may arrive after the banner's last line.
    await vi.waitFor(() => expect(parse(server.stdout())).toEqual(parse(readFileSync(profileFile, 'utf8'))));
    expect(profile.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(profile.minute_ms).toBe(2000);
  });

  it('says on stderr where it listens and what to run next, a command that runs as printed', async () => {
    expect(server.stderr()).toMatch(/^harness reference server listening on http:\/\/127\.0\.0\.1:\d+$/m);
    const next = /^next, in another terminal: (.+?) {2}\(then: /m.exec(server.stderr())?.[1];
    expect(next).toBe(`npx --no-install harness conformance --profile ${profileFile}`);
    const run = await asPrinted(
      `${next} --only token --report-dir ${mkdtempSync(join(tmpdir(), 'harness-'))}`,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^summary: \d+ checks in [\d.]+ s: 0 FAIL/m);
  }, 60_000);

  it('issues a token and limits a client by the SPEC.md table', async () => {
    const http = new HttpClient();
    const tokens = new TokenManager({ authUrl: profile.auth_url, tenant: profile.tenant, http });
    const api = new ApiClient({ baseUrl: profile.base_url, http, tokens });
    const rerun = { method: 'POST', path: '/api/rules/rerun', body: {} };
    const first = await api.call(profile.clients.primary, rerun);
    const second = await api.call(profile.clients.primary, rerun);
    await http.close();
    expect(first.status).toBe(202);
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toMatch(/^[12]$/);
  });
});

describe('harness serve --limiter sliding-log --limit-before-auth', () => {
  let server: Awaited<ReturnType<typeof startHarness>>;
  let profile: Profile;

  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'harness-serve-')), 'profile.yaml');
    server = await startHarness(
      ['serve', '--limiter', 'sliding-log', '--limit-before-auth', '--profile-out', file],
      /stop with Ctrl-C/,
    );
    profile = loadProfile(file);
  });
  afterAll(() => {
    server.child.kill('SIGTERM');
  });

  it('says which limiter runs, and counts a 403 toward the tenant', async () => {
    expect(server.stderr()).toContain('limiter: sliding-log, counted before auth (gateway mode)');
    const http = new HttpClient();
    const tokens = new TokenManager({ authUrl: profile.auth_url, tenant: profile.tenant, http });
    const api = new ApiClient({ baseUrl: profile.base_url, http, tokens });
    const rerun = { method: 'POST', path: '/api/rules/rerun', body: {} };
    const forbidden = await api.call(profile.clients.restricted!, rerun);
    const limited = await api.call(profile.clients.primary, rerun);
    await http.close();
    expect([forbidden.status, limited.status]).toEqual([403, 429]);
  });
});

describe('harness serve --tokens jwt', () => {
  let server: Awaited<ReturnType<typeof startHarness>>;
  let profile: Profile;

  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'harness-serve-')), 'profile.yaml');
    server = await startHarness(['serve', '--tokens', 'jwt', '--profile-out', file], /stop with Ctrl-C/);
    profile = loadProfile(file);
  });
  afterAll(() => {
    server.child.kill('SIGTERM');
  });

  it('hands out JWTs that serve API calls', async () => {
    expect(server.stderr()).toContain('tokens: JWTs signed ES256 with jose');
    const http = new HttpClient();
    const tokens = new TokenManager({ authUrl: profile.auth_url, tenant: profile.tenant, http });
    const api = new ApiClient({ baseUrl: profile.base_url, http, tokens });
    const token = await tokens.token(profile.clients.primary);
    const schedule = await api.call(profile.clients.primary, { method: 'GET', path: '/api/rules/schedule' });
    await http.close();
    expect(token.split('.')).toHaveLength(3);
    expect(schedule.status).toBe(200);
  });
});

// No test below shares state with another or times anything but its own process: they run side by side, as many
// at once as run.ts allows.
describe.concurrent('harness serve, bad input', SIDE_BY_SIDE, () => {
  it.each([
    [['serve', '--fault', 'nope'], "option '--fault <name>' argument 'nope' is invalid"],
    [['serve', '--fault', 'token-type-lowercas'], '(did you mean token-type-lowercase?)'],
    [['serve', '--port', '70000'], "option '--port <n>' argument '70000' is invalid"],
    [['serve', '--limiter', 'leaky'], "option '--limiter <kind>' argument 'leaky' is invalid"],
    [['serve', '--tokens', 'paseto'], "option '--tokens <kind>' argument 'paseto' is invalid"],
    [['serve', '--limit', 'transactions=5/second'], "unknown bucket 'transactions'"],
    [['serve', '--host', '192.0.2.1'], 'not a loopback address'],
    [['serve', '--colour'], "unknown option '--colour'"],
    [['serve', '--tls-cert', 'server.pem'], '--tls-cert needs --tls-key'],
    [['serve', '--tls-client-ca', 'ca.pem'], '--tls-client-ca needs --tls-cert and --tls-key'],
    [
      ['serve', '--tls-cert', '/nonexistent.pem', '--tls-key', '/nonexistent.key'],
      '--tls-cert /nonexistent.pem: cannot read (ENOENT)',
    ],
  ])('%j: one line naming the flag, exit 2', async (args, message) => {
    const result = await harness(args);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(message);
  });

  it('without Toxiproxy, says how to get it outside a clone too, and where harness looks', async () => {
    const result = await harness(['serve', '--network', 'far'], { TOXIPROXY_BIN: '/nonexistent/toxiproxy' });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('go install github.com/Shopify/toxiproxy/v2/cmd/server@v2.5.0');
    expect(result.stderr).toContain('TOXIPROXY_BIN');
  });

  it('lists every fault with its clause', async () => {
    const result = await harness(['serve', '--list-faults']);
    expect(result.status).toBe(0);
    const [heading, ...lines] = result.stdout.trim().split('\n');
    expect(heading).toMatch(/^FAULT\s+CLAUSE\s+WHAT IT BREAKS$/);
    expect(lines).toHaveLength(FAULTS.length);
    // Columns two spaces apart at least, however long the clause ("§4 token payload").
    for (const [i, fault] of FAULTS.entries())
      expect(lines[i]).toMatch(new RegExp(`^${fault.name}\\s+§.*?\\S {2,}\\S`));
  });
});

describe.skipIf(!hasTool('toxiproxy'))(needing('toxiproxy', 'harness serve --network region'), () => {
  let server: Awaited<ReturnType<typeof startHarness>>;
  let profile: Profile;

  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'harness-serve-')), 'profile.yaml');
    server = await startHarness(['serve', '--network', 'region', '--profile-out', file], /stop with Ctrl-C/);
    profile = loadProfile(file);
  });
  afterAll(() => {
    server.child.kill('SIGTERM');
  });

  it('puts Toxiproxy in front: the profile points at the proxy, and a round trip takes a region’s latency', async () => {
    const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(server.stderr())?.[1];
    expect(server.stderr()).toMatch(/^network: region, through Toxiproxy at http:\/\/127\.0\.0\.1:\d+/m);
    expect(profile.base_url).not.toBe(listening);
    const http = new HttpClient();
    const started = performance.now();
    const token = await new TokenManager({ authUrl: profile.auth_url, tenant: profile.tenant, http }).issued(
      profile.clients.primary,
    );
    await http.close();
    expect(token.token).not.toBe('');
    // 40 ms each way at least: loopback alone answers in about one.
    expect(performance.now() - started).toBeGreaterThan(70);
  });

  it('refuses an unknown condition with exit code 2 naming the flag', async () => {
    const result = await harness(['serve', '--network', 'moon']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--network <condition>.*expected one of lan, region, far/);
  });
});
