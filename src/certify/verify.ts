// Checking a certification archive: the manifest's signature first (so nothing unsigned is trusted), then every
// file against the manifest's hash of it, in the manifest's order, stopping at the first mismatch.
import type { KeyObject } from 'node:crypto';
import { MANIFEST, MANIFEST_FORMAT, type Manifest, SIGNATURE, sha256, signatureMatches } from './manifest.ts';
import { ArchiveError, type TarEntry, untarGz } from './tar.ts';

export type Verification =
  | { readonly ok: true; readonly manifest: Manifest }
  | { readonly ok: false; readonly mismatch: string };

const mismatch = (text: string): Verification => ({ ok: false, mismatch: text });

export const verifyArchive = (archive: Buffer, key: KeyObject): Verification => {
  let entries: TarEntry[];
  try {
    entries = untarGz(archive);
  } catch (error) {
    if (error instanceof ArchiveError) return mismatch(`archive: ${error.message}`);
    throw error;
  }
  const byPath = new Map(entries.map((e) => [e.path, e.data]));
  const manifestBytes = byPath.get(MANIFEST);
  const signature = byPath.get(SIGNATURE);
  if (manifestBytes === undefined) return mismatch(`${MANIFEST}: missing from the archive`);
  if (signature === undefined) return mismatch(`${SIGNATURE}: missing from the archive`);
  if (!signatureMatches(manifestBytes, signature, key))
    return mismatch(`${MANIFEST}: the signature in ${SIGNATURE} does not match it with this public key`);

  // Signed, so written by harness: its shape is harness's own.
  const manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
  if (manifest.format !== MANIFEST_FORMAT)
    return mismatch(`${MANIFEST}: format ${manifest.format}, this harness reads ${MANIFEST_FORMAT}`);
  for (const file of manifest.files) {
    const data = byPath.get(file.path);
    if (data === undefined) return mismatch(`${file.path}: listed in the manifest, missing from the archive`);
    const actual = sha256(data);
    if (actual !== file.sha256)
      return mismatch(`${file.path}: sha256 ${actual} in the archive, ${file.sha256} in the manifest`);
  }
  const listed = new Set([MANIFEST, SIGNATURE, ...manifest.files.map((f) => f.path)]);
  const extra = entries.find((e) => !listed.has(e.path));
  if (extra !== undefined) return mismatch(`${extra.path}: in the archive, not in the manifest`);
  return { ok: true, manifest };
};
