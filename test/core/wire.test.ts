// core/wire.ts: the requests k6 sends and harness's own client sends are built by the same functions, so they
// must match what Node's URLSearchParams would have written.

import { describe, expect, it } from 'vitest';
import {
  apiHeaders,
  formEncoded,
  type K6Spec,
  renewAtFor,
  tokenForm,
  urlOf,
  withPathIds,
} from '../../core/wire.ts';
import { specData } from '../../src/spec/export.ts';
import { GRANT_TYPE, RETRY_AFTER_PATTERN, TOKEN_LIFETIME_SECONDS } from '../../src/spec/index.ts';

describe('wire', () => {
  it('encodes a query exactly as URLSearchParams does, without it', () => {
    const pairs = { 'a b': 'yes please', 'x&y': 'c=d+e%', punct: "!'()~*-._", utf8: 'grüß 日本', empty: '' };
    expect(formEncoded(pairs)).toBe(new URLSearchParams(pairs).toString());
    expect(formEncoded({})).toBe('');
  });

  it("sends the profile's headers beside the content type, and never its Authorization", () => {
    expect(apiHeaders('application/json', 'Bearer t')).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer t',
    });
    const extra = {
      'X-Api-Version': '2',
      'Content-Type': 'application/vnd.x+json',
      AUTHORIZATION: 'Basic no',
    };
    expect(apiHeaders('application/json', 'Bearer t', extra)).toEqual({
      'x-api-version': '2',
      'content-type': 'application/vnd.x+json',
      authorization: 'Bearer t',
    });
    expect(apiHeaders('application/json', undefined, extra)).not.toHaveProperty('authorization');
  });

  it('fills path ids percent-encoded, and joins base, path and query', () => {
    expect(withPathIds('/status/{batch_id}', { batch_id: 'a/b c', other: 'x' })).toBe('/status/a%2Fb%20c');
    expect(urlOf('https://api.test/v//', '/p', { q: '1 2' })).toBe('https://api.test/v/p?q=1+2');
    expect(urlOf('https://api.test', '/p', {})).toBe('https://api.test/p');
    expect(urlOf('https://api.test', '/p')).toBe('https://api.test/p');
  });

  it('renews a token its margin before expiry, halfway through a short one, at the spec lifetime without one', () => {
    expect(renewAtFor(0, 3600, 3600)).toBe(3_570_000);
    expect(renewAtFor(0, 2, 3600)).toBe(1000);
    expect(renewAtFor(0, 3600, 3600, 10)).toBe(3_590_000);
    for (const odd of [undefined, '3600', 0, -5, Number.POSITIVE_INFINITY])
      expect(renewAtFor(1000, odd, 3600)).toBe(1000 + 3_570_000);
  });

  it('builds the token form of SPEC.md §4 with the scope it is given', () => {
    expect(tokenForm('client_credentials', { client_id: 'app', scope: 'tenant/acme' }, 'pw')).toEqual({
      grant_type: 'client_credentials',
      client_id: 'app',
      client_secret: 'pw',
      scope: 'tenant/acme',
    });
  });

  it('exports for k6 the SPEC.md constants it reads, in the shape it reads them', () => {
    const exported: K6Spec = specData();
    expect(exported.token).toEqual({ grantType: GRANT_TYPE, lifetimeSeconds: TOKEN_LIFETIME_SECONDS });
    expect(new RegExp(exported.retryAfterPattern).source).toBe(RETRY_AFTER_PATTERN.source);
  });
});
