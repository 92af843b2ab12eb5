// A closed-loop load generator for the throughput comparison: `connections` requests in flight, each answered
// request immediately replaced, for a fixed time. It only counts; it does not judge.
import { Pool } from 'undici';

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly statuses: Record<number, number>;
}

export const closedLoop = async (
  origin: string,
  request: { method: 'POST'; path: string; headers: Record<string, string>; body: string },
  options: { connections: number; durationMs: number },
): Promise<LoadResult> => {
  const pool = new Pool(origin, { connections: options.connections, pipelining: 1 });
  const statuses: Record<number, number> = {};
  let requests = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const res = await pool.request(request);
      await res.body.dump();
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      requests += 1;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { requests, seconds, perSecond: requests / seconds, statuses };
};
