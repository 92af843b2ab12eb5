// JWT access tokens (RFC 9068), for the reference server's `tokens: 'jwt'` mode: signed and verified with jose, as
// servers built from OAuth and JWT libraries do, so harness's token checks meet the decoding such servers do (jose,
// like every base64url decoder, ignores the unused bits of a segment's last character).
import { compactVerify, generateKeyPair, SignJWT } from 'jose';

/** ES256: the commonest signature of access tokens; 64 bytes, so its last character carries 4 unused bits. */
const ALG = 'ES256';
const ISSUER = 'harness-reference';

export interface JwtClaims {
  /** The store's key for the token (tokens.ts): the server still decides its lifetime and revocation there. */
  readonly jti: string;
  readonly clientId: string;
  readonly scope: string;
  readonly issuedAtMs: number;
  readonly lifetimeSeconds: number;
}

export interface JwtTokens {
  sign(claims: JwtClaims): Promise<string>;
  /** The jti of a token whose signature this server's key verifies; undefined for any other token. */
  keyOf(token: string): Promise<string | undefined>;
}

/** A fresh key pair per server: its tokens are worth nothing beyond it. */
export const createJwtTokens = async (): Promise<JwtTokens> => {
  const { privateKey, publicKey } = await generateKeyPair(ALG);
  return {
    sign: ({ jti, clientId, scope, issuedAtMs, lifetimeSeconds }) => {
      const iat = Math.floor(issuedAtMs / 1000);
      return new SignJWT({ client_id: clientId, scope })
        .setProtectedHeader({ alg: ALG, typ: 'at+jwt' })
        .setIssuer(ISSUER)
        .setSubject(clientId)
        .setJti(jti)
        .setIssuedAt(iat)
        .setExpirationTime(iat + lifetimeSeconds)
        .sign(privateKey);
    },
    // The signature only: lifetime and revocation are the store's, so a test clock and the expiry faults apply as
    // they do to opaque tokens.
    keyOf: async (token) => {
      try {
        const { payload } = await compactVerify(token, publicKey, { algorithms: [ALG] });
        const { jti } = JSON.parse(new TextDecoder().decode(payload)) as { jti?: unknown };
        return typeof jti === 'string' ? jti : undefined;
      } catch {
        return undefined;
      }
    },
  };
};
