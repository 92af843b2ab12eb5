// core/load-env.ts, the Node -> k6 contract: what Node encodes k6 decodes to the same settings, a malformed value is
// refused naming its variable (and never quoting a secret), and both real ends, src/k6-driver/run.ts and k6 running
// load/probe.ts, go through it.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeLoadEnv, encodeLoadEnv, type LoadSettings, loadEnvName } from '../../core/load-env.ts';
import { k8sManifests } from '../../src/k6-driver/k8s.ts';
import { k6PlanFor } from '../../src/k6-driver/plan.ts';
import { runLoad } from '../../src/k6-driver/run.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { PLAN_ONLY_TARGET } from '../load/target.ts';
import { startLoadTarget } from '../support/load-target.ts';
import { hasTool, needing } from '../support/tools.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const K6 = process.env.K6_BIN ?? join(ROOT, 'tools/k6');
const temp = mkdtempSync(join(tmpdir(), 'harness-load-env-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const EVERY_SETTING: Required<LoadSettings> = {
  target: { base_url: PLAN_ONLY_TARGET.base_url, auth_url: PLAN_ONLY_TARGET.auth_url },
  plan: k6PlanFor(resolveTarget(PLAN_ONLY_TARGET), { scenarios: ['transactions'] }),
  secrets: { primary: 's3cret' },
  targetName: 'http://127.0.0.1:1',
  tokens: { primary: { token: 'tok', renewAt: 1_700_000_000_000 } },
  ids: { account_id: 'a1' },
  roundTripMs: 12,
  startAt: 1_700_000_000_123,
  instances: 2,
  instance: 1,
  requestTimeoutMs: 2500,
  summaryJson: '/tmp/s.json',
  summaryHtml: '/tmp/s.html',
  summaryStdout: 'markers',
  runId: 'run-1',
  version: '0.1.0',
  k6Version: 'v2.2.0',
  clockHost: 'boot-1',
};
const KEYS = Object.keys(EVERY_SETTING) as (keyof LoadSettings)[];

const decodeAll = (env: Record<string, string | undefined>) =>
  Object.fromEntries(KEYS.map((key) => [key, decodeLoadEnv(env, key)]));

describe('the HARNESS_* environment contract', () => {
  it('decodes every setting to what was encoded, and leaves unset ones undefined', () => {
    expect(decodeAll(encodeLoadEnv(EVERY_SETTING))).toEqual(EVERY_SETTING);
    const fewest = encodeLoadEnv({ target: EVERY_SETTING.target, plan: EVERY_SETTING.plan, secrets: {} });
    expect(Object.keys(fewest).sort()).toEqual(['HARNESS_PLAN', 'HARNESS_SECRETS', 'HARNESS_TARGET']);
    expect(decodeLoadEnv(fewest, 'requestTimeoutMs')).toBeUndefined();
  });

  it('names each variable after its setting, so a setting has one name from Node to k6', () => {
    for (const key of KEYS)
      expect(loadEnvName(key)).toBe(`HARNESS_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`);
  });

  it('refuses a missing required setting, an empty one counting as missing', () => {
    expect(() => decodeLoadEnv({}, 'target')).toThrow('HARNESS_TARGET is not set: run this script through');
    expect(() => decodeLoadEnv({ HARNESS_PLAN: '' }, 'plan')).toThrow('HARNESS_PLAN is not set');
  });

  it('refuses a malformed value naming the variable, and quotes no JSON value, which may hold a secret', () => {
    expect(() => decodeLoadEnv({ HARNESS_START_AT: '17e11' }, 'startAt')).toThrow(
      'HARNESS_START_AT must be a whole number, not "17e11"',
    );
    expect(() => decodeLoadEnv({ HARNESS_SUMMARY_STDOUT: 'no' }, 'summaryStdout')).toThrow(
      'HARNESS_SUMMARY_STDOUT must be one of text, none, markers, not "no"',
    );
    for (const [raw, message] of [
      ['{"primary": s3cret}', 'HARNESS_SECRETS must be {"role": "secret"} as JSON'],
      ['{"primary": {"value": "s3cret"}}', 'HARNESS_SECRETS must be {"role": "secret"}'],
    ]) {
      const error = (() => {
        try {
          decodeLoadEnv({ HARNESS_SECRETS: raw }, 'secrets');
        } catch (thrown) {
          return String(thrown);
        }
      })();
      expect(error).toContain(message);
      expect(error).not.toContain('s3cret');
    }
    expect(() => decodeLoadEnv({ HARNESS_TOKENS: '{"primary": "tok"}' }, 'tokens')).toThrow(
      'HARNESS_TOKENS must be {"role": {"token", "renewAt"}}',
    );
    expect(() => decodeLoadEnv({ HARNESS_TARGET: '[]' }, 'target')).toThrow('HARNESS_TARGET must be');
  });

  it('knows every HARNESS_* name the k6-operator manifests set', () => {
    const names = new Set<string>(KEYS.map(loadEnvName));
    const files = k8sManifests({
      profile: { ...PLAN_ONLY_TARGET, timeout_ms: 2500 },
      plan: { scenarios: ['transactions'] },
      instances: 4,
      image: 'k6',
      generatedAt: 0,
      startAt: 60_000,
      runId: 'run-1',
      harnessVersion: '0.1.0',
      bundle: '',
    });
    const used = Object.values(files).flatMap((text) => text.match(/\bHARNESS_[A-Z_]+/g) ?? []);
    expect(used).toEqual(
      expect.arrayContaining(['HARNESS_REQUEST_TIMEOUT_MS', 'HARNESS_RUN_ID', 'HARNESS_VERSION']),
    );
    expect(used.filter((name) => !names.has(name))).toEqual([]);
  });

  it('is what src/k6-driver/run.ts hands k6, the request timeout included', async () => {
    const target = await startLoadTarget();
    const dump = join(temp, 'env.json');
    const fakeK6 = join(temp, 'k6');
    writeFileSync(
      fakeK6,
      `#!/bin/sh\nexec node -e 'require("fs").writeFileSync(${JSON.stringify(dump)}, JSON.stringify(process.env))'\n`,
    );
    chmodSync(fakeK6, 0o755);
    try {
      const run = runLoad({
        k6: fakeK6,
        profile: target.profile,
        plan: { scenarios: ['transactions'], durationMs: 1000 },
        instances: 1,
        dir: temp,
        label: 'env',
        http: { requestTimeoutMs: 2500 },
      });
      await expect(run).rejects.toThrow('wrote no summary');
    } finally {
      await target.close();
    }
    const env = JSON.parse(readFileSync(dump, 'utf8')) as Record<string, string>;
    const settings = decodeAll(env);
    expect(settings).toMatchObject({
      requestTimeoutMs: 2500,
      instances: 1,
      instance: 0,
      summaryStdout: 'none',
      secrets: { primary: target.profile.clients.primary.client_secret },
    });
    expect(settings.target).toMatchObject({ base_url: target.profile.base_url });
  });

  it.skipIf(!hasTool('k6'))(
    needing('k6', 'is what k6 decodes: a malformed value stops load/probe.ts naming the variable'),
    () => {
      const env = {
        ...process.env,
        ...encodeLoadEnv(EVERY_SETTING),
        HARNESS_START_AT: 'soon',
        K6_NO_USAGE_REPORT: 'true',
        K6_AUTO_EXTENSION_RESOLUTION: 'false',
      };
      const inspected = spawnSync(K6, ['inspect', '--include-system-env-vars', join(ROOT, 'load/probe.ts')], {
        env,
        encoding: 'utf8',
      });
      expect(inspected.status).not.toBe(0);
      expect(inspected.stdout + inspected.stderr).toContain(
        'HARNESS_START_AT must be a whole number, not \\"soon\\"',
      );
      const good = execFileSync(K6, ['inspect', '--include-system-env-vars', join(ROOT, 'load/probe.ts')], {
        env: { ...env, HARNESS_START_AT: String(EVERY_SETTING.startAt) },
        encoding: 'utf8',
      });
      expect(JSON.parse(good)).toHaveProperty('scenarios');
    },
  );
});
