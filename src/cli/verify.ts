// `harness verify`: exit 0 with what was certified when the signature and every hash match, exit 1 naming the
// first mismatch otherwise, exit 2 when the archive or the key cannot be read at all.
import { readFileSync } from 'node:fs';
import { keyFingerprint, readPublicKey, sha256 } from '../certify/manifest.ts';
import { MAX_ARCHIVE_BYTES } from '../certify/tar.ts';
import { verifyArchive } from '../certify/verify.ts';
import { readAtMost } from '../read-at-most.ts';
import { SPEC_FILE } from './certify.ts';
import { UsageError } from './errors.ts';

export interface VerifyOptions {
  publicKey: string;
}

const MISMATCH = 1;

export const verify = (archivePath: string, options: VerifyOptions): void => {
  const key = readPublicKey(options.publicKey);
  let archive: Buffer;
  try {
    // One byte past the bound is enough for verifyArchive to refuse the file as too large.
    archive = readAtMost(archivePath, MAX_ARCHIVE_BYTES);
  } catch (error) {
    throw new UsageError(`${archivePath}: cannot read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  const result = verifyArchive(archive, key);
  if (!result.ok) {
    console.log(`verification failed: ${result.mismatch}`);
    process.exitCode = MISMATCH;
    return;
  }
  const m = result.manifest;
  const ourSpec = sha256(readFileSync(SPEC_FILE));
  console.log(
    `verified: the manifest is signed by the key with sha256 ${keyFingerprint(key)}, and all ${m.files.length} files match it`,
  );
  console.log(`harness ${m.harness.version} (commit ${m.harness.commit}), Node ${m.node}, ${m.k6}`);
  console.log(
    `SPEC.md sha256 ${m.spec.sha256}${m.spec.sha256 === ourSpec ? ' (the same as this harness)' : ' (differs from this harness: the archive holds the one it ran against)'}`,
  );
  console.log(
    `target: ${m.target.base_url}, tenant ${m.target.tenant}${m.target.embedded ? ' (the embedded reference server)' : ''}`,
  );
  console.log(`run: ${m.startedAt} to ${m.finishedAt}`);
  console.log(`conformance: ${m.conformance.summary}`);
  console.log(`load: ${m.load.summary}`);
  console.log(`certifiable: ${m.certifiable ? 'yes' : `no: ${m.notCertifiable.join('; ')}`}`);
};
