// Which probes a target allows, what each is called and which limit it faces: the catalogue `--list` prints and
// planProbes (plan.ts) draws from.
import type { Target } from '../profile/target.ts';
import type { BucketId } from '../spec/index.ts';

/** Friendly probe names for the buckets; `--scenario` takes these. */
export const PROBE_NAMES: Readonly<Record<BucketId, string>> = {
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

interface AvailableProbe {
  readonly name: string;
  readonly bucket: BucketId;
  readonly describes: string;
}

/** `POST /event/transaction/v3: 500 / second`: the bucket's first endpoint and its limit. */
const limitOn = (target: Target, bucket: BucketId, keys: string): string => {
  const { count, per } = target.limitOf(bucket);
  return `${keys}: ${count} / ${per}`;
};

/** Every probe this target allows, before selection; `describes` is what --list prints. */
export const availableProbes = (target: Target): AvailableProbe[] => {
  const probes: AvailableProbe[] = [];
  for (const [bucket, name] of Object.entries(PROBE_NAMES) as [BucketId, string][]) {
    const endpoints = target.endpointsIn(bucket);
    if (endpoints.length === 0 || !endpoints.every(target.reachable)) continue;
    probes.push({ name, bucket, describes: limitOn(target, bucket, endpoints.map((e) => e.key).join(', ')) });
  }
  // The tenant probes ride on the busiest bucket they may use: a per-second limit takes seconds, not minutes.
  const host =
    probes.find((p) => p.bucket === 'transaction-event') ?? probes.find((p) => p.name === 'schedule');
  if (host === undefined) return probes;
  const on = limitOn(target, host.bucket, target.endpointsIn(host.bucket)[0]!.key);
  if (target.profile.clients.same_tenant) {
    probes.push({
      name: 'tenant-sharing',
      bucket: host.bucket,
      describes: `primary and same_tenant together on ${on}`,
    });
  }
  if (target.profile.clients.other_tenant) {
    probes.push({
      name: 'tenant-isolation',
      bucket: host.bucket,
      describes: `other_tenant on ${on} while primary is held over it: its own limit`,
    });
  }
  return probes;
};
