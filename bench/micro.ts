// Micro-benchmarks of the per-request work on harness's hot paths: the reference server's limiter decision and
// token lookup, and the client's redaction of captured evidence.
import { Bench } from 'tinybench';
import { Redactor } from '../src/client/index.ts';
import { createLimitState, LIMITER_KINDS } from '../src/reference/limiter-kinds.ts';
import { registerClients, TokenStore } from '../src/reference/tokens.ts';

export interface MicroResult {
  readonly name: string;
  readonly opsPerSecond: number;
  readonly meanNs: number;
  readonly samples: number;
}

export const runMicro = async (): Promise<MicroResult[]> => {
  const bench = new Bench({ time: 500, warmupTime: 100 });

  for (const kind of LIMITER_KINDS) {
    const state = createLimitState(kind, 500, 1000);
    // One request a millisecond: twice the limit, so admissions and refusals both stay on the measured path.
    let now = 0;
    bench.add(`limiter decision (${kind}, 500/s)`, () => {
      now += 1;
      state.admit(now);
    });
  }

  const [client] = registerClients([
    { client_id: 'bench', client_secret: 'bench-secret', tenant: 'acme' },
  ]).values();
  const store = new TokenStore(3_600_000, 'forget');
  const tokens = Array.from({ length: 100 }, () => store.issue(client!, 0));
  let i = 0;
  bench.add('token check (100 live tokens)', () => {
    store.lookup(tokens[i++ % tokens.length]!, 1);
  });

  const redactor = new Redactor();
  redactor.addSecret('bench-client-secret-value');
  for (const token of tokens.slice(0, 10)) redactor.addToken(token);
  const body = JSON.stringify({
    access_token: tokens[0],
    expires_in: 3600,
    token_type: 'Bearer',
    note: 'x'.repeat(2000),
  });
  bench.add('redaction of a 2 KB token response (11 known secrets)', () => {
    redactor.text(body);
  });

  // A server issuing a fresh 8 KB token in every answer: 1,000 learned, then a 64 KiB body to redact.
  const learned = new Redactor();
  for (let n = 0; n < 1000; n++) learned.addToken(`${n}:`.padEnd(8192, String.fromCharCode(65 + (n % 26))));
  // Cut copies of the learned tokens, as an echoing server sends them: every position starts a near match.
  const large = Array.from({ length: 1024 }, (_, n) =>
    `${n % 1000}:`.padEnd(64, String.fromCharCode(65 + (n % 26))),
  ).join('');
  bench.add('redaction of a 64 KiB body (1,000 learned 8 KB tokens)', () => {
    learned.text(large);
  });

  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result as {
      throughput?: { mean: number };
      latency?: { mean: number; samplesCount?: number };
    };
    const meanMs = result.latency?.mean ?? Number.NaN;
    return {
      name: task.name,
      opsPerSecond: result.throughput?.mean ?? 1000 / meanMs,
      meanNs: meanMs * 1e6,
      samples: result.latency?.samplesCount ?? 0,
    };
  });
};
