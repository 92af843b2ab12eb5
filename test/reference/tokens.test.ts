import { describe, expect, it } from 'vitest';
import { authenticateClient, registerClients, TokenStore } from '../../src/reference/tokens.ts';

const clients = registerClients([
  { client_id: 'a', client_secret: 'secret-a', tenant: 'acme' },
  { client_id: 'b', client_secret: 'secret-b', tenant: 'acme', lacks: ['POST /api/rules/rerun'] },
]);
const a = clients.get('a')!;

describe('client authentication', () => {
  it('tells an unknown client from a wrong secret', () => {
    expect(authenticateClient(clients, 'a', 'secret-a')).toBe(a);
    expect(authenticateClient(clients, 'a', 'secret-b')).toBe('secret');
    expect(authenticateClient(clients, 'a', '')).toBe('secret');
    expect(authenticateClient(clients, 'c', 'secret-a')).toBe('unknown');
    expect(clients.get('b')?.lacks.has('POST /api/rules/rerun')).toBe(true);
  });
});

describe('token store', () => {
  it('issues distinct base64url tokens valid until their lifetime ends', () => {
    const store = new TokenStore(1000, 'forget');
    const token = store.issue(a, 0);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(store.issue(a, 0)).not.toBe(token);
    expect(store.lookup(token, 999)).toBe(a);
    expect(store.lookup(token, 1000)).toBeUndefined();
    expect(store.lookup(token, 0)).toBeUndefined();
  });

  it('drops expired tokens of a client when it gets a new one', () => {
    const store = new TokenStore(1000, 'forget');
    const client = registerClients([{ client_id: 'x', client_secret: 's', tenant: 't' }]).get('x')!;
    store.issue(client, 0);
    store.issue(client, 500);
    store.issue(client, 1200);
    expect(client.tokens.size).toBe(2);
  });

  it('keeps at most 1000 live tokens per client, evicting the oldest', () => {
    const store = new TokenStore(60_000, 'forget');
    const client = registerClients([{ client_id: 'x', client_secret: 's', tenant: 't' }]).get('x')!;
    const first = store.issue(client, 0);
    const second = store.issue(client, 0);
    for (let i = 0; i < 999; i++) store.issue(client, 0);
    expect(client.tokens.size).toBe(1000);
    expect(store.lookup(first, 0)).toBeUndefined();
    expect(store.lookup(second, 0)).toBe(client);
  });

  it('revokes a token and finds tokens by prefix only when asked to', () => {
    const store = new TokenStore(1000, 'forget');
    const token = store.issue(a, 0);
    expect(store.lookup(token.slice(0, 8), 0)).toBeUndefined();
    expect(store.lookupPrefix(token.slice(0, 8), 0)).toBe(a);
    store.revoke(token);
    expect(store.lookup(token, 0)).toBeUndefined();
    expect(a.tokens.has(token)).toBe(false);
  });

  it('keeps expired tokens working under expired-token-accepted', () => {
    const store = new TokenStore(1000, 'accept');
    const token = store.issue(a, 0);
    store.issue(a, 5000);
    expect(store.lookup(token, 10_000)).toBe(a);
  });

  it('refuses but remembers expired tokens, for gateway mode', () => {
    const store = new TokenStore(1000, 'remember');
    const token = store.issue(a, 0);
    store.issue(a, 5000);
    expect(store.lookup(token, 10_000)).toBeUndefined();
    expect(store.owner(token)).toBe(a);
    expect(store.owner('never-issued')).toBeUndefined();
  });
});
