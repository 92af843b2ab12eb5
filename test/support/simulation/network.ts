// A simulated network between harness and an in-process reference server, on the virtual clock: each request takes a
// one-way delay out and back (Toxiproxy's latency toxic, drawn from a seed), and the server answers one request at a
// time, as a single event loop does, so a burst's answers spread out as they do on a real socket.
import type { RequestListener } from 'node:http';
import { Readable } from 'node:stream';
import inject from 'light-my-request';
import type { Transport } from '../../../src/client/index.ts';
import { CONDITIONS, type NetworkCondition } from '../../../src/reference/toxiproxy.ts';
import type { VirtualClock } from './virtual-clock.ts';

export interface SimulatedLink {
  /** Delay added to each direction; a round trip takes about twice this. */
  readonly latencyMs: number;
  /** Each direction's delay is latencyMs plus or minus up to this, uniformly (as Toxiproxy draws it). */
  readonly jitterMs: number;
  /** The server's time per request, one request at a time. */
  readonly serviceMs: number;
}

/** Loopback with no toxic: what `lan` is in the real-time tests (Toxiproxy's own hop, a fraction of a millisecond). */
const LOOPBACK = { latencyMs: 0.25, jitterMs: 0.15 };
/** About what the reference server takes per request on this machine's loopback (bench/throughput.ts). */
const SERVICE_MS = 0.1;

export const simulatedLink = (condition: NetworkCondition): SimulatedLink => ({
  ...(CONDITIONS[condition] ?? LOOPBACK),
  serviceMs: SERVICE_MS,
});

export const simulatedNetwork = (
  clock: VirtualClock,
  listener: RequestListener,
  link: SimulatedLink,
  random: () => number,
): Transport => {
  const oneWay = () => Math.max(0, link.latencyMs + (2 * random() - 1) * link.jitterMs);
  let serverFreeAt = Number.NEGATIVE_INFINITY;
  return async ({ origin, method, path, headers: sent, body, signal }) => {
    await clock.sleep(oneWay(), signal);
    const startAt = Math.max(clock.now(), serverFreeAt);
    serverFreeAt = startAt + link.serviceMs;
    await clock.sleep(startAt - clock.now(), signal);
    const answer = await inject(listener, {
      method: method as 'GET',
      url: `${origin}${path}`,
      headers: sent,
      ...(body === undefined ? {} : { payload: body }),
    });
    // The server's Date is its clock's (light-my-request stamps the real one).
    const date = new Date(clock.now()).toUTCString();
    await clock.sleep(link.serviceMs + oneWay(), signal);
    const headers = Object.fromEntries(
      Object.entries(answer.headers).map(([name, value]) => [
        name,
        typeof value === 'number' ? String(value) : value,
      ]),
    );
    return {
      statusCode: answer.statusCode,
      headers: { ...headers, date },
      body: Readable.from([answer.rawPayload]),
    };
  };
};
