// Checking a certification archive as it streams. harness writes the manifest first and its signature second, so
// the signature is checked before any other file is read (nothing unsigned is trusted), then each file's SHA-256
// as its data passes, stopping at the first mismatch. Only the manifest and the signature are held whole.
import { createHash, type KeyObject } from 'node:crypto';
import { HarnessError, isHarnessError } from '../errors.ts';
import {
  MANIFEST,
  MANIFEST_FORMAT,
  type Manifest,
  type ManifestFile,
  SIGNATURE,
  signatureMatches,
} from './manifest.ts';
import { manifestFault } from './manifest-schema.ts';
import { type ArchiveSource, type EntrySink, MAX_ARCHIVE_BYTES, type OnEntry, readTarGz } from './untar.ts';

export type Verification =
  | { readonly ok: true; readonly manifest: Manifest }
  | { readonly ok: false; readonly mismatch: string };

/** The most of the manifest or of its signature verify holds: harness writes a few kilobytes and 89 bytes. */
export const MAX_HELD_BYTES = 1024 * 1024;

/** A mismatch found while reading, which ends the reading. */
class Mismatch extends HarnessError {
  constructor(message: string) {
    super('HARNESS_ARCHIVE_MISMATCH', message);
  }
}

/** Collects an entry read whole (the manifest, its signature); `done` gets its bytes at its end. */
const held = (path: string, size: number, done: (data: Buffer) => void): EntrySink => {
  if (size > MAX_HELD_BYTES)
    throw new Mismatch(
      `${path}: ${size} bytes, far more than harness writes (verify reads ${MAX_HELD_BYTES})`,
    );
  const data = Buffer.alloc(size);
  let filled = 0;
  return { write: (chunk) => (filled += chunk.copy(data, filled)), end: () => done(data) };
};

/** Hashes an entry as it passes, and compares at its end. */
const hashed = (file: ManifestFile): EntrySink => {
  const hash = createHash('sha256');
  return {
    write: (chunk) => hash.update(chunk),
    end: () => {
      const actual = hash.digest('hex');
      if (actual !== file.sha256)
        throw new Mismatch(`${file.path}: sha256 ${actual} in the archive, ${file.sha256} in the manifest`);
    },
  };
};

const openManifest = (bytes: Buffer, signature: Buffer, key: KeyObject): Manifest => {
  if (!signatureMatches(bytes, signature, key))
    throw new Mismatch(`${MANIFEST}: the signature in ${SIGNATURE} does not match it with this public key`);
  // Signed, so written by the key's holder, but not necessarily in a shape harness writes (a mistake, a bug, another
  // tool): that is a mismatch like any other, one line, and never a stack trace.
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new Mismatch(`${MANIFEST}: signed, but not JSON`);
  }
  // The format first: a later harness's manifest is named as such, not as a shape this one does not know.
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== MANIFEST_FORMAT)
    throw new Mismatch(
      `${MANIFEST}: format ${JSON.stringify(format)}, this harness reads ${MANIFEST_FORMAT}`,
    );
  const fault = manifestFault(value);
  if (fault) throw new Mismatch(`${MANIFEST}: ${fault}`);
  return value as Manifest;
};

export const verifyArchive = async (
  source: ArchiveSource,
  key: KeyObject,
  limit = MAX_ARCHIVE_BYTES,
): Promise<Verification> => {
  let manifestBytes: Buffer | undefined;
  let manifest: Manifest | undefined;
  /** The manifest's files not yet read, in its order. */
  const unread = new Map<string, ManifestFile>();
  let entries = 0;
  const onEntry: OnEntry = (path, size) => {
    const place = entries++;
    const expected = [MANIFEST, SIGNATURE][place];
    if (expected !== undefined && path !== expected)
      throw new Mismatch(
        `${expected}: not the ${place === 0 ? 'first' : 'second'} file of the archive, where harness writes it (${path} is)`,
      );
    if (place === 0) return held(path, size, (bytes) => (manifestBytes = bytes));
    if (place === 1)
      return held(path, size, (signature) => {
        manifest = openManifest(manifestBytes!, signature, key);
        for (const file of manifest.files) unread.set(file.path, file);
      });
    const file = unread.get(path);
    if (file === undefined) throw new Mismatch(`${path}: in the archive, not in the manifest`);
    unread.delete(path);
    return hashed(file);
  };
  try {
    await readTarGz(source, onEntry, limit);
  } catch (error) {
    if (isHarnessError(error, 'HARNESS_ARCHIVE_MISMATCH')) return { ok: false, mismatch: error.message };
    if (isHarnessError(error, 'HARNESS_ARCHIVE')) return { ok: false, mismatch: `archive: ${error.message}` };
    throw error;
  }
  if (manifestBytes === undefined) return { ok: false, mismatch: `${MANIFEST}: missing from the archive` };
  if (manifest === undefined) return { ok: false, mismatch: `${SIGNATURE}: missing from the archive` };
  const [missing] = unread.values();
  if (missing !== undefined)
    return { ok: false, mismatch: `${missing.path}: listed in the manifest, missing from the archive` };
  return { ok: true, manifest };
};
