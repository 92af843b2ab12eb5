// `harness verify`: exit 0 with what was certified when the signature and every hash match, exit 1 naming the
// first mismatch otherwise, exit 2 when the archive or the key cannot be read at all.
import { createReadStream, readFileSync } from 'node:fs';
import { keyFingerprint, readPublicKey, sha256 } from '../certify/manifest.ts';
import { type Verification, verifyArchive } from '../certify/verify.ts';
import { SPEC_FILE } from './certify.ts';
import { UsageError } from './errors.ts';

export interface VerifyOptions {
  publicKey: string;
}

const MISMATCH = 1;

export const verify = async (archivePath: string, options: VerifyOptions): Promise<void> => {
  const key = readPublicKey(options.publicKey);
  let result: Verification;
  try {
    result = await verifyArchive(createReadStream(archivePath), key);
  } catch (error) {
    // Only the file's own errors (opening or reading it) are bad input; anything else is harness's fault.
    const { syscall, code } = error as NodeJS.ErrnoException;
    if (syscall === undefined) throw error;
    throw new UsageError(`${archivePath}: cannot read (${code})`);
  }
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
