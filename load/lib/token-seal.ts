// Tokens sealed for the trip from a k6-operator runner's setup() to its VUs. setup()'s return value is no private
// channel: k6 serves it on the runner's REST API (GET /v1/setup, on every address the operator binds) and copies it
// into the summary's setup_data. So a token travels encrypted with AES-GCM under a key only the runner's own VUs
// can derive: PBKDF2 over HARNESS_SECRETS (the client secrets, which fetch such a token anyway) salted with the run
// id, so a sealed token opens in no other run. The role is the additional data, so a ciphertext moved to another
// role fails authentication, and a forged one (PUT /v1/setup) opens to nothing. WebCrypto only, which k6 (v1+) and
// Node both provide: no cipher of harness's own. k6 v2.2 derives keys with PBKDF2 alone (no HKDF).

/** PBKDF2 rounds: every VU derives the key once at init, some mid-run, so the cost stays at milliseconds. */
export const SEAL_ITERATIONS = 10_000;

export type SealKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** A token encrypted for one role: the nonce and the ciphertext with its tag, hex. */
export interface SealedToken {
  readonly iv: string;
  readonly sealed: string;
}

/** What a VU starts with: the token and the epoch ms to renew it at. */
export interface OpenedToken {
  readonly token: string;
  readonly renewAt: number;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

const hex = (buffer: ArrayBuffer | Uint8Array): string =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

const bytes = (text: string) => {
  if (!/^(?:[0-9a-f]{2})*$/.test(text)) throw new Error('not hex');
  return new Uint8Array((text.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16)));
};

/** The key every process of run `runId` derives from the same HARNESS_SECRETS value. */
export const sealingKey = async (secrets: string, runId: string): Promise<SealKey> => {
  const material = await crypto.subtle.importKey('raw', utf8(secrets), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'PBKDF2',
      hash: 'SHA-256',
      salt: utf8(`harness token seal ${runId}`),
      iterations: SEAL_ITERATIONS,
    },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
};

export const sealToken = async (key: SealKey, role: string, opened: OpenedToken): Promise<SealedToken> => {
  // A fresh 96-bit nonce for every token: GCM never sees one twice under a key.
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: utf8(role) },
    key,
    utf8(JSON.stringify(opened)),
  );
  return { iv: hex(iv), sealed: hex(sealed) };
};

/** The token sealed for `role`, or undefined when it does not open (another key, run or role, or tampered). */
export const openToken = async (
  key: SealKey,
  role: string,
  sealed: SealedToken,
): Promise<OpenedToken | undefined> => {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes(sealed.iv), additionalData: utf8(role) },
      key,
      bytes(sealed.sealed),
    );
    const opened = JSON.parse(new TextDecoder().decode(plain)) as Partial<OpenedToken>;
    if (typeof opened.token !== 'string' || typeof opened.renewAt !== 'number') return undefined;
    return { token: opened.token, renewAt: opened.renewAt };
  } catch {
    return undefined;
  }
};
