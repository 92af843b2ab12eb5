// What a certification archive says about itself: every file with its SHA-256, what ran, against what, when, and
// whether the run can certify the target. The manifest is what gets signed, so the hashes extend the signature to
// every file.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign as signBytes,
  verify as verifyBytes,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { InputError } from '../errors.ts';
import { profileRedactor } from '../profile/secrets.ts';
import type { Profile } from '../spec/index.ts';
import { type TarEntry, tarGz } from './tar.ts';

export const MANIFEST = 'manifest.json';
export const SIGNATURE = 'manifest.json.sig';
export const MANIFEST_FORMAT = 'harness-certification/1';

export interface ManifestFile {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

export interface CommandSummary {
  readonly exitCode: number;
  /** One line: what the command found. */
  readonly summary: string;
}

export interface Manifest {
  readonly format: typeof MANIFEST_FORMAT;
  readonly harness: { readonly version: string; readonly commit: string };
  readonly spec: { readonly path: 'SPEC.md'; readonly sha256: string };
  readonly node: string;
  readonly k6: string;
  readonly target: {
    readonly base_url: string;
    readonly auth_url: string;
    readonly tenant: string;
    readonly embedded: boolean;
  };
  /** The profile as run, client secrets and request header values removed; null for the embedded server. */
  readonly profile: unknown;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly certifiable: boolean;
  readonly notCertifiable: readonly string[];
  readonly conformance: CommandSummary;
  readonly load: CommandSummary;
  readonly signer: { readonly algorithm: 'Ed25519'; readonly publicKeySha256: string };
  readonly files: readonly ManifestFile[];
}

export const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

const describeFile = (path: string, data: Buffer): ManifestFile => ({
  path,
  sha256: sha256(data),
  bytes: data.length,
});

/**
 * Client secrets go, and so do request header values, which may carry a gateway key, and every value the profile
 * took from the environment; everything else in a profile
 * is what a certifier needs to see to judge the run (target, overrides, side effects, TLS file names).
 */
export const redactProfile = (profile: Profile): unknown => {
  const clients = Object.fromEntries(
    Object.entries(profile.clients).map(([role, { client_secret: _secret, ...rest }]) => [role, rest]),
  );
  const requests = Object.fromEntries(
    Object.entries(profile.requests ?? {}).map(([key, request]) => [
      key,
      request.headers === undefined
        ? request
        : {
            ...request,
            headers: Object.fromEntries(Object.keys(request.headers).map((name) => [name, '[REDACTED]'])),
          },
    ]),
  );
  const kept = { ...profile, clients, ...(profile.requests === undefined ? {} : { requests }) };
  // Values from ${VAR} references anywhere in it (an id, a query value, the URLs) go too.
  return profileRedactor(profile).within(kept);
};

const readKey = (flag: string, path: string, parse: (pem: Buffer) => KeyObject): KeyObject => {
  let key: KeyObject;
  try {
    key = parse(readFileSync(path));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InputError(`${flag} ${path}: cannot read a PEM key (${why})`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new InputError(
      `${flag} ${path}: an Ed25519 key is needed, not ${key.asymmetricKeyType} (openssl genpkey -algorithm ed25519)`,
    );
  }
  return key;
};

export const readPrivateKey = (path: string): KeyObject =>
  readKey('--key', path, (pem) => createPrivateKey(pem));
export const readPublicKey = (path: string): KeyObject =>
  readKey('--public-key', path, (pem) => createPublicKey(pem));

/** SHA-256 of the public key's DER (SPKI), the fingerprint a certifier publishes beside the key. */
export const keyFingerprint = (key: KeyObject): string =>
  sha256((key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' }));

/** Base64 Ed25519 signature of the manifest's exact bytes, one line. */
const signManifest = (manifest: Buffer, key: KeyObject): string =>
  `${signBytes(null, manifest, key).toString('base64')}\n`;

/** Only the exact form signManifest writes counts: base64 decoding skips stray characters, a tamperer's included. */
export const signatureMatches = (manifest: Buffer, signature: Buffer, key: KeyObject): boolean => {
  const raw = Buffer.from(signature.toString('latin1'), 'base64');
  return (
    signature.toString('latin1') === `${raw.toString('base64')}\n` && verifyBytes(null, manifest, key, raw)
  );
};

/** What the run says about itself; sealArchive adds the format, the signer and the files. */
export type ManifestBody = Omit<Manifest, 'format' | 'signer' | 'files'>;

/** The archive: the manifest, its signature, then the files in the given order. */
export const sealArchive = (
  body: ManifestBody,
  files: readonly TarEntry[],
  key: KeyObject,
  at: Date,
): { archive: Buffer; manifest: Manifest } => {
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    ...body,
    signer: { algorithm: 'Ed25519', publicKeySha256: keyFingerprint(key) },
    files: files.map((f) => describeFile(f.path, f.data)),
  };
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const signature = Buffer.from(signManifest(bytes, key));
  const archive = tarGz(
    [{ path: MANIFEST, data: bytes }, { path: SIGNATURE, data: signature }, ...files],
    at,
  );
  return { archive, manifest };
};
