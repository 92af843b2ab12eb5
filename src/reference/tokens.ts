// Issued access tokens and the clients they belong to.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ReferenceClient } from './options.ts';

export interface RegisteredClient {
  readonly kind: 'client';
  /** Position in the client list; the limiter indexes its windows by it. */
  readonly index: number;
  readonly client: ReferenceClient;
  readonly lacks: ReadonlySet<string>;
  readonly secretDigest: Buffer;
  /** This client's live tokens, oldest first (a Set keeps insertion order). */
  readonly tokens: Set<string>;
}

interface TokenRecord {
  readonly client: RegisteredClient;
  readonly expiresAt: number;
  /** What the client was handed: the key itself, or a JWT naming it (see handOut). */
  readonly token: string;
}

const MAX_TOKENS_PER_CLIENT = 1000;

// Comparing digests keeps timingSafeEqual's inputs the same length, so not even a secret's length leaks.
const digest = (secret: string): Buffer => createHash('sha256').update(secret).digest();
const UNKNOWN_CLIENT_DIGEST = digest(randomBytes(24).toString('base64url'));

export const registerClients = (clients: readonly ReferenceClient[]): Map<string, RegisteredClient> =>
  new Map(
    clients.map((client, index) => [
      client.client_id,
      {
        kind: 'client',
        index,
        client,
        lacks: new Set(client.lacks ?? []),
        secretDigest: digest(client.client_secret),
        tokens: new Set<string>(),
      },
    ]),
  );

/** 'unknown' for an unknown client_id, 'secret' for a known one with a wrong secret. */
export const authenticateClient = (
  clients: ReadonlyMap<string, RegisteredClient>,
  clientId: string,
  secret: string,
): RegisteredClient | 'unknown' | 'secret' => {
  const client = clients.get(clientId);
  // An unknown client_id costs the same hash and compare as a known one.
  const same = timingSafeEqual(digest(secret), client?.secretDigest ?? UNKNOWN_CLIENT_DIGEST);
  if (!client) return 'unknown';
  return same ? client : 'secret';
};

/** How many issued tokens the store remembers for `issued()`, oldest forgotten first. */
const ISSUED_LOG_SIZE = 10_000;

/**
 * What becomes of a token past its lifetime. forget: refused, then dropped. remember: refused, but kept so its owner
 * stays known (gateway mode counts such requests toward the tenant). accept: still served (the expired-token-accepted
 * fault). Remembered and accepted tokens are bounded by the per-client cap.
 */
export type ExpiredTokens = 'forget' | 'remember' | 'accept';

export class TokenStore {
  private readonly records = new Map<string, TokenRecord>();
  private readonly log: string[] = [];

  constructor(
    private readonly lifetimeMs: number,
    private readonly expired: ExpiredTokens,
  ) {}

  issue(client: RegisteredClient, now: number): string {
    // Tokens of one client expire in issue order, so the expired ones sit at the front of its Set.
    if (this.expired === 'forget') {
      for (const token of client.tokens) {
        const record = this.records.get(token);
        if (record && record.expiresAt > now) break;
        this.revoke(token);
      }
    }
    if (client.tokens.size >= MAX_TOKENS_PER_CLIENT) {
      const oldest = client.tokens.values().next();
      if (!oldest.done) this.revoke(oldest.value);
    }
    const token = randomBytes(32).toString('base64url');
    this.remember(token);
    this.records.set(token, { client, expiresAt: now + this.lifetimeMs, token });
    client.tokens.add(token);
    return token;
  }

  /** The client was handed `token` (a JWT) for the key `issue` returned: the fault scans and the log see that. */
  handOut(key: string, token: string): void {
    const record = this.records.get(key);
    if (record) this.records.set(key, { ...record, token });
    // In the key's place: the log holds what clients were handed, and the key alone was never handed out.
    const logged = this.log.lastIndexOf(key);
    if (logged >= 0) this.log[logged] = token;
    else this.remember(token);
  }

  private remember(token: string): void {
    this.log.push(token);
    if (this.log.length > ISSUED_LOG_SIZE) this.log.shift();
  }

  /** Every token issued (the last 10,000), expired or not: lets a test grep artifacts for leaked tokens. */
  issued(): readonly string[] {
    return [...this.log];
  }

  /** The client a live token belongs to; an expired one is refused (and forgotten, unless the store remembers). */
  lookup(token: string, now: number): RegisteredClient | undefined {
    const record = this.records.get(token);
    if (!record) return undefined;
    if (record.expiresAt > now || this.expired === 'accept') return record.client;
    if (this.expired === 'forget') this.revoke(token);
    return undefined;
  }

  /** The client a token was issued to, live or expired, as long as the store still holds it. */
  owner(token: string): RegisteredClient | undefined {
    return this.records.get(token)?.client;
  }

  /** For the truncated-token-accepted fault only: a linear scan is fine there. */
  lookupPrefix(prefix: string, now: number): RegisteredClient | undefined {
    return this.lookupHandedOut((token) => token.startsWith(prefix), now);
  }

  /** For the altered-token-accepted fault only: a token handed out that differs in one character, anywhere. */
  lookupAltered(altered: string, now: number): RegisteredClient | undefined {
    return this.lookupHandedOut((token) => {
      if (token.length !== altered.length) return false;
      let differing = 0;
      for (let i = 0; i < token.length && differing < 2; i++) if (token[i] !== altered[i]) differing++;
      return differing === 1;
    }, now);
  }

  private lookupHandedOut(matches: (token: string) => boolean, now: number): RegisteredClient | undefined {
    for (const [key, record] of this.records) if (matches(record.token)) return this.lookup(key, now);
    return undefined;
  }

  revoke(token: string): void {
    const record = this.records.get(token);
    if (!record) return;
    this.records.delete(token);
    record.client.tokens.delete(token);
  }
}
