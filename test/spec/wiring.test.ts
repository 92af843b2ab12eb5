// An endpoint or bucket added to src/spec must reach every part of harness that reads the spec data: the k6 copy of
// it, the load probes and the conformance checks. (The reference server routes ENDPOINTS itself; its handler table is
// keyed by bucket, so tsc refuses a bucket without one, and test/reference/server.test.ts calls every route.)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bucketTag } from '../../conformance/bucket-probe.ts';
import { allChecks } from '../../conformance/index.ts';
import { availableProbes } from '../../src/k6-driver/probes.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { resolveOptions } from '../../src/reference/options.ts';
import { buildProfile } from '../../src/reference/profile.ts';
import { SPEC_JSON_PATH, specData } from '../../src/spec/export.ts';
import { BUCKETS, type BucketId, ENDPOINTS, endpointQuote, limitQuote } from '../../src/spec/index.ts';

const profile = buildProfile(resolveOptions(), 'http://127.0.0.1:9', 'http://127.0.0.1:9/oauth2/token');
const target = resolveTarget(profile);
const checks = allChecks(target);
const probes = availableProbes(target);

describe('the spec data reaches every part of harness', () => {
  it(`${SPEC_JSON_PATH}, which k6 reads, is src/spec's data as it is now (npm run gen)`, () => {
    const committed = JSON.parse(readFileSync(resolve(import.meta.dirname, '../..', SPEC_JSON_PATH), 'utf8'));
    expect(committed).toEqual(specData());
  });

  it.each(ENDPOINTS.map((e) => [e.key]))('%s has its existence check', (key) => {
    const { text } = endpointQuote(ENDPOINTS.find((e) => e.key === key)!);
    expect(checks.filter((c) => c.quote === text).map((c) => c.id)).toHaveLength(1);
  });

  it.each(Object.keys(BUCKETS) as BucketId[])('bucket %s has a load probe and its limit checks', (bucket) => {
    expect(probes.map((p) => p.bucket)).toContain(bucket);
    const limitChecks = checks.filter((c) => c.tags.includes(bucket)).map((c) => c.id);
    expect(limitChecks).toContain(`LIMIT-ADMITS-${bucketTag(bucket)}`);
    expect(limitChecks).toContain(`LIMIT-RETRY-AFTER-${bucketTag(bucket)}`);
    expect(checks.find((c) => c.id === `LIMIT-ADMITS-${bucketTag(bucket)}`)?.quote).toBe(
      limitQuote(bucket).text,
    );
  });
});
