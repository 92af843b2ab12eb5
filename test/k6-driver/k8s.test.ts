// `harness load --k8s DIR`: the manifests it writes validate against the k6-operator's own TestRun CRD (vendored
// in test/fixtures/k6-operator), carry no secret, and give setup() the time to wait for the common start.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { K8S_FILES } from '../../src/k6-driver/k8s.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { harness, profileFor, secretsOf, tmp } from '../cli/run.ts';
import { generateK8s, type TestRun } from '../load/k8s-generate.ts';

const CRD = resolve(import.meta.dirname, '../fixtures/k6-operator/k6.io_testruns.yaml');

type Schema = { [key: string]: unknown };

/**
 * kubectl validates fields strictly (unknown fields are an error, not silently pruned): the CRD's object schemas
 * list their properties without `additionalProperties: false`, so it is added wherever properties are listed.
 */
const strictFields = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(strictFields);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, strictFields(v)]));
  if (out.properties !== undefined && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
};

const validatorFor = (apiVersion: string) => {
  const crd = parse(readFileSync(CRD, 'utf8')) as {
    spec: { group: string; versions: { name: string; schema: { openAPIV3Schema: Schema } }[] };
  };
  const version = crd.spec.versions.find((v) => `${crd.spec.group}/${v.name}` === apiVersion);
  if (version === undefined) throw new Error(`the CRD serves no ${apiVersion}`);
  // strict: false because the schema carries x-kubernetes-* keywords; formats (int32, date-time) are Kubernetes'.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile(strictFields(version.schema.openAPIV3Schema) as Schema);
};

let server: RunningReferenceServer;
let generated: Awaited<ReturnType<typeof generateK8s>>;
const START_IN_S = 600;

beforeAll(async () => {
  server = await startReferenceServer();
  generated = await generateK8s(server, [
    '--instances',
    '4',
    '--scenario',
    'all',
    '--start-in',
    `${START_IN_S}s`,
  ]);
}, 60_000);
afterAll(() => server.close());

const runnerEnv = (run: TestRun) => Object.fromEntries(run.spec.runner.env.map((e) => [e.name, e]));

describe('harness load --k8s', () => {
  it('writes a TestRun the CRD accepts, with one runner per execution segment', () => {
    const run = generated.testRun;
    const validate = validatorFor(run.apiVersion);
    expect(validate(run) ? [] : validate.errors).toEqual([]);
    expect(run.spec).toMatchObject({ parallelism: 4, separate: true, paused: 'true' });
    expect(runnerEnv(run).HARNESS_INSTANCES?.value).toBe('4');
  });

  it('would catch a misspelt field or a wrong type', () => {
    const run = generated.testRun;
    const validate = validatorFor(run.apiVersion);
    expect(validate({ ...run, spec: { ...run.spec, paralellism: 4 } })).toBe(false);
    expect(validate.errors?.[0]?.params).toEqual({ additionalProperty: 'paralellism' });
    expect(validate({ ...run, spec: { ...run.spec, parallelism: '4' } })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/spec/parallelism');
  });

  it('gives setup() longer than the wait for the common start', () => {
    const env = runnerEnv(generated.testRun);
    const startIn = Number(env.HARNESS_START_AT?.value) - Date.now();
    const setupTimeout = Number(/^(\d+)ms$/.exec(env.K6_SETUP_TIMEOUT?.value ?? '')?.[1]);
    expect(startIn).toBeGreaterThan((START_IN_S - 60) * 1000);
    expect(setupTimeout).toBeGreaterThan(START_IN_S * 1000);
  });

  it('puts the bundled probe, its spec data, the target and the plan in the ConfigMap the TestRun names', () => {
    const { configMap, testRun } = generated;
    expect(testRun.spec.script.configMap).toEqual({ name: configMap.metadata.name, file: 'probe.js' });
    expect(Object.keys(configMap.data).sort()).toEqual([
      'plan.json',
      'probe.js',
      'spec.generated.json',
      'target.json',
    ]);
    expect(configMap.data['probe.js']).not.toMatch(/from ['"]\.\/lib\//);
    expect(JSON.parse(configMap.data['target.json']!).base_url).toBe(server.profile().base_url);
    const plan = JSON.parse(configMap.data['plan.json']!) as { probes: { name: string }[] };
    expect(plan.probes.length).toBeGreaterThan(1);
  });

  it('writes no secret: the Secret is a template naming every client role, and the runners read it', () => {
    const { dir, secret } = generated;
    const written = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
    for (const value of secretsOf(server)) for (const text of written) expect(text).not.toContain(value);
    expect(Object.keys(JSON.parse(secret.stringData.HARNESS_SECRETS!)).sort()).toEqual(
      Object.keys(server.clients).sort(),
    );
    expect(runnerEnv(generated.testRun).HARNESS_SECRETS?.valueFrom?.secretKeyRef?.key).toBe(
      'HARNESS_SECRETS',
    );
    expect(generated.testRun.spec.initializer.env.map((e) => e.name)).not.toContain('HARNESS_SECRETS');
  });

  it('writes no credential header and no ${VAR} value either: the ConfigMap holds markers, the Secret names them', async () => {
    const profile = structuredClone(server.profile());
    const env = { BASE_URL: profile.base_url, API_KEY: 'k8s-api-key-2b7e91' };
    profile.base_url = '${BASE_URL}';
    profile.auth_url = profile.auth_url.replace(env.BASE_URL, '${BASE_URL}');
    profile.requests = {
      ...profile.requests,
      'POST /event/transaction/v3': {
        ...profile.requests?.['POST /event/transaction/v3'],
        headers: { 'x-api-key': '${API_KEY}' },
      },
    };
    const dir = tmp();
    const file = join(dir, 'profile.yaml');
    writeFileSync(file, stringify(profile));
    const out = join(dir, 'k8s');
    const result = await harness(['load', '--profile', file, '--k8s', out, '--image', 'k6:test'], env);
    expect(result.status, result.stderr).toBe(0);
    // Before, target.json held both values in clear.
    for (const name of readdirSync(out)) {
      const text = readFileSync(join(out, name), 'utf8');
      for (const value of Object.values(env)) expect(text, name).not.toContain(value);
    }
    const secret = parse(readFileSync(join(out, K8S_FILES.secret), 'utf8')) as {
      stringData: Record<string, string>;
    };
    expect(Object.values(JSON.parse(secret.stringData.HARNESS_SECRETS!))).toEqual(
      expect.arrayContaining([
        "<the profile's value at /base_url>",
        "<the profile's value at /requests/POST ~1event~1transaction~1v3/headers/x-api-key>",
      ]),
    );
  });

  it('gives every generated TestRun a fresh run id', async () => {
    const again = await generateK8s(server, ['--instances', '2']);
    expect(runnerEnv(again.testRun).HARNESS_RUN_ID?.value).toMatch(/^[0-9a-f-]{36}$/);
    expect(runnerEnv(again.testRun).HARNESS_RUN_ID?.value).not.toBe(
      runnerEnv(generated.testRun).HARNESS_RUN_ID?.value,
    );
  });

  it.concurrent.each([
    [['--k8s', 'x'], '--k8s needs --image'],
    [['--image', 'k6:test'], '--image and --start-in apply with --k8s only'],
    [['--k8s', 'x', '--image', 'k6:test', '--strict'], '--strict grades a run'],
    [['--k8s', 'x', '--image', 'k6:test', '--ca', 'ca.pem'], '--k8s: --ca, --cert, --key and --insecure'],
  ])('refuses %j in one line, exit 2', async (args, message) => {
    const { file, env } = profileFor(server);
    const result = await harness(['load', '--profile', file, ...args], env);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(message)]);
  });

  it('refuses --k8s without a profile: pods cannot reach the embedded server', async () => {
    const result = await harness(['load', '--k8s', 'x', '--image', 'k6:test']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(
      'harness: --k8s needs --profile: pods cannot reach the embedded server on this machine',
    );
  });
});
