// The client's burst: 600 authorised requests fired at once and all collected, the work behind SPEC.md's 500/s
// check (a sub-second burst of limit + 1). The server runs in another process so the two do not share a core.
import { Bench } from 'tinybench';
import { ApiClient, HttpClient, TokenManager } from '../src/client/index.ts';
import type { Profile } from '../src/spec/index.ts';

export const BURST = 600;

export interface BurstResult {
  readonly requests: number;
  readonly meanMs: number;
  readonly p99Ms: number;
  readonly samples: number;
}

export const runBurst = async (profile: Profile): Promise<BurstResult> => {
  const http = new HttpClient();
  const tokens = new TokenManager({ authUrl: profile.auth_url, tenant: profile.tenant, http });
  const api = new ApiClient({ baseUrl: profile.base_url, http, tokens });
  const client = profile.clients.primary;
  const request = {
    method: 'POST',
    path: '/event/transaction/v3',
    body: profile.requests?.['POST /event/transaction/v3']?.body ?? {},
  };
  const fire = async () => {
    const answers = await Promise.all(Array.from({ length: BURST }, () => api.call(client, request)));
    if (answers.some((a) => a.status !== 202)) throw new Error('a burst request was not admitted');
  };
  await fire();
  const bench = new Bench({ time: 3000, iterations: 5 });
  bench.add(`burst of ${BURST} authorised requests`, fire);
  await bench.run();
  await http.close();
  const latency = (bench.tasks[0]!.result as { latency: { mean: number; p99: number; samplesCount: number } })
    .latency;
  return { requests: BURST, meanMs: latency.mean, p99Ms: latency.p99, samples: latency.samplesCount };
};
