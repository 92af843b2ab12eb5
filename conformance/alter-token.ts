// How AUTH-BEARER-ALTERED alters a token: one character changed so that what the token encodes changes too.
// The last character of a base64url segment may carry unused bits (4 of 6 for a 64-byte ES256 or EdDSA signature),
// which decoders ignore: changing only those leaves the token the same to a correct server, which then serves it.
// A character inside a segment carries 6 bits of data, so changing one there always changes the decoded bytes.

export interface AlteredToken {
  readonly token: string;
  /** What was changed, without any of the token's characters (they are part of a secret). */
  readonly change: string;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BASE64URL_SEGMENT = /^[A-Za-z0-9_-]*$/;
const ALG = /^[A-Za-z0-9+-]{1,32}$/;

const decoded = (segment: string): Buffer => Buffer.from(segment, 'base64url');

/** The `alg` of a JOSE compact serialization (JWS: 3 segments, JWE: 5), undefined for anything else. */
const joseAlg = (segments: readonly string[]): string | undefined => {
  if (segments.length !== 3 && segments.length !== 5) return undefined;
  if (!segments.every((s) => BASE64URL_SEGMENT.test(s))) return undefined;
  try {
    const header: unknown = JSON.parse(decoded(segments[0]!).toString('utf8'));
    const alg = (header as { alg?: unknown } | null)?.alg;
    return typeof alg === 'string' ? alg : undefined;
  } catch {
    return undefined;
  }
};

const replaceAt = (text: string, index: number, char: string): string =>
  `${text.slice(0, index)}${char}${text.slice(index + 1)}`;

/**
 * A JWT (or JWE) with the middle character of its last segment (the signature, or the JWE tag) given the other half
 * of the alphabet, so its top bit differs; with no signature (alg none), of the payload. It stays a well-formed JWT
 * whose signature no longer matches, which only a server that verifies it refuses.
 */
const alterJose = (segments: readonly string[], alg: string): AlteredToken | undefined => {
  const last = segments.length - 1;
  const at = segments[last] !== '' ? last : 1;
  const segment = segments[at]!;
  // Neither end: the last character may carry unused bits (see above).
  if (segment.length < 3) return undefined;
  const index = Math.floor(segment.length / 2);
  const value = BASE64URL.indexOf(segment[index]!);
  const altered = replaceAt(segment, index, BASE64URL[value ^ 32]!);
  const before = decoded(segment);
  const after = decoded(altered);
  const differing = before.filter((byte, i) => byte !== after[i]).length;
  if (differing === 0) return undefined;
  const part = at === last ? (segments.length === 5 ? 'authentication tag' : 'signature') : 'payload';
  const name = segments.length === 5 ? 'JWE' : 'JWT';
  return {
    token: segments.map((s, i) => (i === at ? altered : s)).join('.'),
    change: `${name}${ALG.test(alg) ? ` (${alg})` : ''} with character ${index + 1} of its ${segment.length}-character ${part} changed, so ${differing} of its ${before.length} decoded bytes differ`,
  };
};

/**
 * An opaque token with a character near its middle, followed by another letter or digit (so not the end of a
 * segment), replaced by another character the token itself uses: same length, same alphabet (hex stays hex).
 */
const alterOpaque = (token: string): AlteredToken | undefined => {
  const alphabet = [...new Set(token)].filter((c) => /[A-Za-z0-9]/.test(c)).sort();
  const inside = (i: number) => /[A-Za-z0-9]/.test(token[i] ?? '') && /[A-Za-z0-9]/.test(token[i + 1] ?? '');
  const middle = Math.floor(token.length / 2);
  for (let offset = 0; offset < token.length; offset++) {
    for (const index of [middle - offset, middle + offset]) {
      if (index < 1 || !inside(index)) continue;
      const replacement = alphabet.find((c) => c !== token[index]);
      if (replacement === undefined) return undefined;
      return {
        token: replaceAt(token, index, replacement),
        change: `opaque token with character ${index + 1} of ${token.length} changed to another of its own characters`,
      };
    }
  }
  return undefined;
};

/** The token with one encoded character changed, or undefined when it has none that can change (too short). */
export const alterToken = (token: string): AlteredToken | undefined => {
  const segments = token.split('.');
  const alg = joseAlg(segments);
  return alg === undefined ? alterOpaque(token) : alterJose(segments, alg);
};
