// Which probes a target allows, what each is called and which limit it faces: the catalogue `--list` prints and
// planProbes (plan.ts) draws from. Pure TypeScript, like the plan.
import type { LoadTarget, SpecData, SpecEndpoint, SpecLimit } from './plan.ts';

/** Friendly probe names for the buckets; `--scenario` takes these. */
const PROBE_NAMES: Readonly<Record<string, string>> = {
  'transaction-event': 'transactions',
  'rules-rerun': 'rerun',
  'rules-schedule': 'schedule',
  'batch-upload-url': 'upload-url',
  'batch-status': 'batch-status',
  'batch-validation-result': 'validation-result',
  'rules-execute': 'execute',
  'rules-status': 'rule-status',
  observability: 'observability-shared',
};

export const effectiveLimit = (spec: SpecData, target: LoadTarget, bucket: string): SpecLimit => {
  const overrides = target.limits ?? {};
  const byEndpoint = spec.endpoints.find((e) => e.bucket === bucket && overrides[e.key] !== undefined);
  return (
    overrides[bucket] ?? (byEndpoint ? overrides[byEndpoint.key] : undefined) ?? spec.buckets[bucket]!.limit
  );
};

const mayCall = (target: LoadTarget, endpoint: SpecEndpoint): boolean => {
  const policy = target.side_effects ?? 'allow';
  if (!endpoint.sideEffects || policy === 'allow') return true;
  return Array.isArray(policy) && policy.includes(endpoint.key);
};

export const endpointsOf = (spec: SpecData, target: LoadTarget, bucket: string): SpecEndpoint[] =>
  bucket === 'observability'
    ? (target.observability ?? []).map((key) => ({
        key,
        method: key.split(' ')[0] as 'GET',
        path: key.slice(key.indexOf(' ') + 1),
        bucket,
        pathIds: [],
        sideEffects: false,
      }))
    : spec.endpoints.filter((e) => e.bucket === bucket);

interface AvailableProbe {
  readonly name: string;
  readonly bucket: string;
  readonly describes: string;
}

/** Every probe this target allows, before selection; `describes` is what --list prints. */
export const availableProbes = (spec: SpecData, target: LoadTarget): AvailableProbe[] => {
  const probes: AvailableProbe[] = [];
  for (const [bucket, name] of Object.entries(PROBE_NAMES)) {
    const endpoints = endpointsOf(spec, target, bucket);
    if (endpoints.length === 0 || !endpoints.every((e) => mayCall(target, e))) continue;
    const limit = effectiveLimit(spec, target, bucket);
    const keys = endpoints.map((e) => e.key).join(', ');
    probes.push({ name, bucket, describes: `${keys}: ${limit.count} / ${limit.per}` });
  }
  // The tenant probes ride on the busiest bucket they may use: a per-second limit takes seconds, not minutes.
  const host =
    probes.find((p) => p.bucket === 'transaction-event') ?? probes.find((p) => p.name === 'schedule');
  if (host === undefined) return probes;
  const limit = effectiveLimit(spec, target, host.bucket);
  const on = `${endpointsOf(spec, target, host.bucket)[0]!.key}: ${limit.count} / ${limit.per}`;
  if (target.clients.same_tenant) {
    probes.push({
      name: 'tenant-sharing',
      bucket: host.bucket,
      describes: `primary and same_tenant together on ${on}`,
    });
  }
  if (target.clients.other_tenant) {
    probes.push({
      name: 'tenant-isolation',
      bucket: host.bucket,
      describes: `other_tenant on ${on} while primary is held over it: its own limit`,
    });
  }
  return probes;
};
