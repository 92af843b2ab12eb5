import { describe, expect, it } from 'vitest';
import { sealedKey, sealTarget, unsealTarget } from '../../core/sealed-target.ts';

const TARGET = {
  base_url: 'https://staging.example.test/tenant-9f3a',
  auth_url: 'https://staging.example.test/tenant-9f3a/oauth2/token',
  requests: {
    'POST /event/transaction/v3': { headers: { 'x-api-key': 'key-51c2e0', accept: 'application/json' } },
    'GET /api/rules/schedule': { query: { sig: 'key-51c2e0-long' } },
  },
  observability: ['GET /api/observability/transaction-summary'],
};
const VALUES = ['https://staging.example.test/tenant-9f3a', 'key-51c2e0', 'key-51c2e0-long', 'never-there'];

describe('a load target sealed for a file that holds no secret', () => {
  const { target, found } = sealTarget(TARGET, VALUES);
  const text = JSON.stringify(target);

  it('holds none of the values, wherever and however often they occur', () => {
    for (const value of VALUES) expect(text).not.toContain(value);
    expect(text).toContain('/oauth2/token');
    expect(target.requests['POST /event/transaction/v3'].headers.accept).toBe('application/json');
  });

  it('names each value it holds by where it was first found, and no value it does not hold', () => {
    expect([...found.values()].sort()).toEqual([
      '/base_url',
      '/requests/GET ~1api~1rules~1schedule/query/sig',
      '/requests/POST ~1event~1transaction~1v3/headers/x-api-key',
    ]);
  });

  it('is the target again once unsealed with the values under their keys', () => {
    // Each value's key, as the Secret template names it: sealed alone, a value is found under its own key only.
    const byKey = new Map<string, string>();
    for (const value of VALUES)
      for (const key of sealTarget({ v: value }, VALUES).found.keys()) byKey.set(key, value);
    for (const key of found.keys()) expect(byKey.has(key)).toBe(true);
    expect(unsealTarget(target, Object.fromEntries(byKey))).toEqual(TARGET);
  });

  it('refuses a marker the Secret has no value for, and leaves a target without markers as it is', () => {
    expect(() => unsealTarget(target, {})).toThrow(/the Secret has no value for #\d/);
    expect(unsealTarget(TARGET, {})).toEqual(TARGET);
    expect(sealedKey(2)).toBe('#2');
  });
});
