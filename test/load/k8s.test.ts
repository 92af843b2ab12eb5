// load/k8s/testrun.yaml against the k6-operator's own TestRun CRD (grafana/k6-operator
// config/crd/bases/k6.io_testruns.yaml, kept beside the project in ../shared/vendor as reference data).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
const CRD = process.env.K6_OPERATOR_CRD ?? resolve(ROOT, '../shared/vendor/k6-operator/k6.io_testruns.yaml');

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

const testRuns = () =>
  parseAllDocuments(readFileSync(join(ROOT, 'load/k8s/testrun.yaml'), 'utf8'))
    .map((doc) => doc.toJS() as { apiVersion: string; kind: string; metadata: { name: string } })
    .filter((doc) => doc.kind === 'TestRun');

describe.skipIf(!existsSync(CRD))(
  `load/k8s TestRun against the k6-operator CRD${existsSync(CRD) ? '' : ` (skipped: no CRD at ${CRD}; set K6_OPERATOR_CRD)`}`,
  () => {
    it('validates every TestRun in testrun.yaml', () => {
      const runs = testRuns();
      expect(runs.map((r) => r.metadata.name)).toEqual(['harness-load']);
      for (const run of runs) {
        const validate = validatorFor(run.apiVersion);
        expect(validate(run) ? [] : validate.errors).toEqual([]);
      }
    });

    it('would catch a misspelt field or a wrong type', () => {
      const [run] = testRuns() as unknown as { apiVersion: string; spec: Schema }[];
      const validate = validatorFor(run!.apiVersion);
      expect(validate({ ...run, spec: { ...run!.spec, paralellism: 4 } })).toBe(false);
      expect(validate.errors?.[0]?.params).toEqual({ additionalProperty: 'paralellism' });
      expect(validate({ ...run, spec: { ...run!.spec, parallelism: '4' } })).toBe(false);
      expect(validate.errors?.[0]?.instancePath).toBe('/spec/parallelism');
    });
  },
);
