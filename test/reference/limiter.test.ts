import { describe, expect, it } from 'vitest';
import { admit, createLimiter, type LimitWindow, retryAfterFor } from '../../src/reference/limiter.ts';
import { resolveOptions } from '../../src/reference/options.ts';
import { RETRY_AFTER_PATTERN } from '../../src/spec/index.ts';

const window = (count: number, ms: number): LimitWindow => ({
  count,
  ms,
  end: Number.NEGATIVE_INFINITY,
  used: 0,
});

describe('fixed window anchored at the first request', () => {
  it('admits count requests, then reports the time left until the window ends', () => {
    const w = window(3, 1000);
    expect([admit(w, 500), admit(w, 600), admit(w, 1499)]).toEqual([0, 0, 0]);
    expect(admit(w, 1499)).toBe(1);
    expect(admit(w, 1000)).toBe(500);
  });

  it('opens the next window at the first request after the previous one ended', () => {
    const w = window(1, 1000);
    expect(admit(w, 0)).toBe(0);
    expect(admit(w, 999)).toBe(1);
    expect(admit(w, 5000)).toBe(0);
    expect(admit(w, 5999)).toBe(1);
    expect(admit(w, 6000)).toBe(0);
  });

  it('does not count refused requests', () => {
    const w = window(2, 1000);
    admit(w, 0);
    admit(w, 0);
    for (let i = 0; i < 10; i++) admit(w, 10);
    expect(w.used).toBe(2);
  });
});

describe('Retry-After', () => {
  const honest = retryAfterFor(undefined);

  it('is whole seconds rounded up and never 0', () => {
    expect(honest(0.2, 0)).toBe('1');
    expect(honest(1000, 0)).toBe('1');
    expect(honest(1001, 0)).toBe('2');
    expect(honest(60_000, 0)).toBe('60');
    for (const ms of [1, 999, 1000, 59_999]) expect(honest(ms, 0)).toMatch(RETRY_AFTER_PATTERN);
  });

  it('is broken as each Retry-After fault says', () => {
    expect(retryAfterFor('retry-after-missing')(5000, 0)).toBeUndefined();
    expect(retryAfterFor('retry-after-http-date')(5000, Date.UTC(2026, 0, 1))).toBe(
      'Thu, 01 Jan 2026 00:00:05 GMT',
    );
    const fractional = retryAfterFor('retry-after-fractional');
    expect([fractional(1000, 0), fractional(1450, 0), fractional(40, 0)]).toEqual(['1.5', '1.5', '0.1']);
    const short = retryAfterFor('retry-after-too-short');
    expect([short(60_000, 0), short(1500, 0), short(999, 0)]).toEqual(['30', '0', '0']);
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

  it('shares a window per tenant and bucket', () => {
    const windowFor = createLimiter(clients, routes, options);
    expect(windowFor(0, routes[0], 'a')).toBe(windowFor(1, routes[0], 'b'));
    expect(windowFor(0, routes[1], undefined)).toBe(windowFor(2, routes[2], undefined));
    expect(windowFor(0, routes[0], 'a')).not.toBe(windowFor(3, routes[0], 'a'));
    expect(windowFor(0, routes[0], 'a')).not.toBe(windowFor(0, routes[1], undefined));
  });

  it('keys by what each fault says instead', () => {
    const perClient = createLimiter(clients, routes, { ...options, fault: 'limit-per-client' });
    expect(perClient(0, routes[0], 'a')).not.toBe(perClient(1, routes[0], 'a'));
    const shared = createLimiter(clients, routes, { ...options, fault: 'limit-shared-across-tenants' });
    expect(shared(0, routes[0], 'a')).toBe(shared(3, routes[0], 'a'));
    const separate = createLimiter(clients, routes, { ...options, fault: 'observability-separate-buckets' });
    expect(separate(0, routes[1], undefined)).not.toBe(separate(0, routes[2], undefined));
    const perId = createLimiter(clients, routes, { ...options, fault: 'limit-per-path-id' });
    expect(perId(0, routes[0], 'a')).not.toBe(perId(0, routes[0], 'b'));
    expect(perId(0, routes[0], 'a')).toBe(perId(1, routes[0], 'a'));
  });
});
