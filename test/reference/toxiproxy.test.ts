// The test bed's network: latency toxics must really slow a round trip through the proxy, and only while the
// condition says so. Bounds are wide (a floor Toxiproxy enforces, a ceiling loopback stays far under) so a busy
// machine cannot fail them.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpClient } from '../../src/client/index.ts';
import {
  CONDITIONS,
  type ReferenceBehindProxy,
  startReferenceBehind,
  startToxiproxy,
} from '../../src/reference/toxiproxy.ts';
import type { Profile } from '../../src/spec/index.ts';
import { hasTool, needing } from '../support/tools.ts';

// region adds 40 ± 5 ms each way, so no round trip through it takes under 70 ms.
const SLOW_ROUND_TRIP_MS = 60;

const http = new HttpClient({ connections: 1 });
let running: ReferenceBehindProxy | undefined;
afterEach(async () => {
  await http.close();
  await running?.close();
  running = undefined;
});

const tokenFor = async (profile: Profile): Promise<string> => {
  const { client_id, client_secret } = profile.clients.primary;
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id,
    client_secret,
    scope: `tenant/${profile.tenant}`,
  });
  const exchange = await http.send({
    method: 'POST',
    url: profile.auth_url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  expect(exchange.status).toBe(200);
  return (exchange.json() as { access_token: string }).access_token;
};

/** The fastest of three API calls on the kept-alive connection: a lower bound the toxics set, noise aside. */
const fastestCallMs = async (profile: Profile, token: string): Promise<number> => {
  const durations: number[] = [];
  for (let i = 0; i < 3; i++) {
    const exchange = await http.send({
      method: 'GET',
      url: `${profile.base_url}/api/rules/schedule`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(exchange.status).toBe(200);
    durations.push(exchange.evidence.durationMs);
  }
  return Math.min(...durations);
};

describe('network conditions', () => {
  it('add latency both ways, far more than region', () => {
    expect(CONDITIONS.lan).toBeUndefined();
    expect(CONDITIONS.region).toEqual({ latencyMs: 40, jitterMs: 5 });
    expect(CONDITIONS.far).toEqual({ latencyMs: 100, jitterMs: 30 });
  });
});

describe.skipIf(!hasTool('toxiproxy'))(needing('toxiproxy', 'the reference server behind Toxiproxy'), () => {
  it('serves token and API calls through one proxy, slowed under region', async () => {
    running = await startReferenceBehind('region');
    const { profile, proxy, server } = running;
    expect(profile.base_url).toBe(`http://127.0.0.1:${proxy.port}`);
    expect(profile.auth_url).toBe(`http://127.0.0.1:${proxy.port}/oauth2/token`);
    expect(proxy.port).not.toBe(server.options.port);
    const token = await tokenFor(profile);
    expect(await fastestCallMs(profile, token)).toBeGreaterThanOrEqual(SLOW_ROUND_TRIP_MS);
  });

  it('stays at loopback speed under lan, and switches condition on a live connection', async () => {
    running = await startReferenceBehind('lan');
    const { profile, proxy } = running;
    const token = await tokenFor(profile);
    expect(await fastestCallMs(profile, token)).toBeLessThan(SLOW_ROUND_TRIP_MS);
    await proxy.setCondition('far');
    expect(proxy.condition).toBe('far');
    // far: 100 ± 30 ms each way.
    expect(await fastestCallMs(profile, token)).toBeGreaterThanOrEqual(140);
    await proxy.setCondition('region');
    const region = await fastestCallMs(profile, token);
    expect(region).toBeGreaterThanOrEqual(SLOW_ROUND_TRIP_MS);
    expect(region).toBeLessThan(140);
    await proxy.setCondition('lan');
    expect(await fastestCallMs(profile, token)).toBeLessThan(SLOW_ROUND_TRIP_MS);
  });

  it('leaves no process and no listening port after close()', async () => {
    running = await startReferenceBehind('lan');
    const { toxiproxy, proxy } = running;
    await running.close();
    running = undefined;
    expect(() => process.kill(toxiproxy.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    await expect(fetch(`${toxiproxy.apiUrl}/version`)).rejects.toThrow();
    await expect(fetch(proxy.url('/'))).rejects.toThrow();
  });

  it('dies with a program that has no signal handler of its own and is sent SIGINT', {
    timeout: 30_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-toxiproxy-'));
    const script = join(dir, 'hold.mts');
    const module = resolve(import.meta.dirname, '../../src/reference/toxiproxy.ts');
    writeFileSync(
      script,
      `const { startToxiproxy } = await import(${JSON.stringify(module)});\n` +
        'console.log((await startToxiproxy()).pid);\nsetInterval(() => {}, 1000);\n',
    );
    const program = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [pid] = (await once(program.stdout!, 'data')) as [Buffer];
    program.kill('SIGINT');
    const [, signal] = await once(program, 'exit');
    expect(signal).toBe('SIGINT');
    rmSync(dir, { recursive: true, force: true });
    // Killed, it is reaped a moment later by whoever inherits it; until then it is a zombie (state Z), dead all the
    // same. A loaded runner may take a few seconds to deliver the signal and let it exit.
    const stat = `/proc/${Number(pid.toString())}/stat`;
    const dead = () => {
      try {
        return /^\d+ \(.*\) [ZX]/.test(readFileSync(stat, 'utf8'));
      } catch {
        return !existsSync(stat);
      }
    };
    const gone = async () => {
      for (let waited = 0; waited < 5000; waited += 50) {
        if (dead()) return true;
        await new Promise((done) => setTimeout(done, 50));
      }
      return false;
    };
    expect(await gone()).toBe(true);
  });

  it('removes a proxy without stopping the others', async () => {
    running = await startReferenceBehind('lan');
    const { toxiproxy, server } = running;
    const second = await toxiproxy.proxy('second', { host: '127.0.0.1', port: server.options.port });
    await running.proxy.remove();
    await expect(fetch(running.proxy.url('/api/rules/schedule'))).rejects.toThrow();
    expect((await fetch(second.url('/api/rules/schedule'))).status).toBe(401);
  });
});

describe('a missing toxiproxy-server binary', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is refused with the command that builds it', async () => {
    vi.stubEnv('TOXIPROXY_BIN', '/nonexistent/toxiproxy-server');
    await expect(startToxiproxy()).rejects.toThrow(/npm run setup/);
  });
});
