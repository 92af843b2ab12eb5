import { describe, expect, it } from 'vitest';
import { createLimiter, retryAfterFor } from '../../src/reference/limiter.ts';
import { resolveOptions } from '../../src/reference/options.ts';
import { RETRY_AFTER_PATTERN } from '../../src/spec/index.ts';

describe('Retry-After', () => {
  const honest = retryAfterFor(undefined);

  it('is whole seconds rounded up and never 0', () => {
    expect(honest(0.2, 0, 60_000)).toBe('1');
    expect(honest(1000, 0, 60_000)).toBe('1');
    expect(honest(1001, 0, 60_000)).toBe('2');
    expect(honest(60_000, 0, 60_000)).toBe('60');
    for (const ms of [1, 999, 1000, 59_999]) expect(honest(ms, 0, 60_000)).toMatch(RETRY_AFTER_PATTERN);
  });

  it('is broken as each Retry-After fault says', () => {
    expect(retryAfterFor('retry-after-missing')(5000, 0, 60_000)).toBeUndefined();
    expect(retryAfterFor('retry-after-http-date')(5000, Date.UTC(2026, 0, 1), 60_000)).toBe(
      'Thu, 01 Jan 2026 00:00:05 GMT',
    );
    const fractional = retryAfterFor('retry-after-fractional');
    expect([fractional(1000, 0, 60_000), fractional(1450, 0, 60_000), fractional(40, 0, 60_000)]).toEqual([
      '1.5',
      '1.5',
      '0.1',
    ]);
    const short = retryAfterFor('retry-after-too-short');
    expect([short(60_000, 0, 60_000), short(1500, 0, 60_000), short(999, 0, 60_000)]).toEqual([
      '30',
      '0',
      '0',
    ]);
  });
});

describe('limit keys', () => {
  const options = resolveOptions();
  const clients = options.allClients;
  const routes = [
    { index: 0, key: 'GET /api/rules/status/{execution_id}', bucket: 'rules-status', hasPathId: true },
    { index: 1, key: 'GET /api/observability/a', bucket: 'observability', hasPathId: false },
    { index: 2, key: 'GET /api/observability/b', bucket: 'observability', hasPathId: false },
  ] as const;

  it('shares a limit state per tenant and bucket', () => {
    const stateFor = createLimiter(clients, routes, options);
    expect(stateFor(0, routes[0], 'a')).toBe(stateFor(1, routes[0], 'b'));
    expect(stateFor(0, routes[1], undefined)).toBe(stateFor(2, routes[2], undefined));
    expect(stateFor(0, routes[0], 'a')).not.toBe(stateFor(3, routes[0], 'a'));
    expect(stateFor(0, routes[0], 'a')).not.toBe(stateFor(0, routes[1], undefined));
  });

  it('keys by what each fault says instead', () => {
    const perClient = createLimiter(clients, routes, resolveOptions({ fault: 'limit-per-client' }));
    expect(perClient(0, routes[0], 'a')).not.toBe(perClient(1, routes[0], 'a'));
    const shared = createLimiter(clients, routes, resolveOptions({ fault: 'limit-shared-across-tenants' }));
    expect(shared(0, routes[0], 'a')).toBe(shared(3, routes[0], 'a'));
    const separate = createLimiter(
      clients,
      routes,
      resolveOptions({ fault: 'observability-separate-buckets' }),
    );
    expect(separate(0, routes[1], undefined)).not.toBe(separate(0, routes[2], undefined));
    const perId = createLimiter(clients, routes, resolveOptions({ fault: 'limit-per-path-id' }));
    expect(perId(0, routes[0], 'a')).not.toBe(perId(0, routes[0], 'b'));
    expect(perId(0, routes[0], 'a')).toBe(perId(1, routes[0], 'a'));
  });
});
