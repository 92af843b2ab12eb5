// `harness verify`: exit 0 with what was certified when the signature and every hash match, exit 1 naming the
// first mismatch otherwise, exit 2 when the archive or the key cannot be read at all.
import { createReadStream, readFileSync } from 'node:fs';
import { keyFingerprint, readPublicKey, sha256 } from '../certify/manifest.ts';
import { type Verification, verifyArchive } from '../certify/verify.ts';
import { printable } from '../printable.ts';
import { SPEC_FILE } from './certify.ts';
import { UsageError } from './errors.ts';
import type { VerifyOptions } from './report-commands.ts';

const MISMATCH = 1;

// Every name and field printed comes from the archive: its control and bidirectional characters are shown escaped,
// so an entry cannot clear the screen, rewrite the verdict above it or show `txt.exe` as `exe.txt`.
const say = (line: string) => console.log(printable(line));

/**
 * Text of several lines (k6's version, which lists its extensions) as lines: each escaped, every one after the first
 * indented under it, so none can pass for a line of harness's own (`certifiable: yes`).
 */
const sayLines = (first: string, text: string) => {
  const [head = '', ...rest] = text.split(/\r?\n/);
  say(`${first}${head}`);
  for (const line of rest.filter((l) => l.trim() !== '')) say(`  ${line}`);
};

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
    say(`verification failed: ${result.mismatch}`);
    process.exitCode = MISMATCH;
    return;
  }
  const m = result.manifest;
  const ourSpec = sha256(readFileSync(SPEC_FILE));
  say(
    `verified: the manifest is signed by the key with sha256 ${keyFingerprint(key)}, and all ${m.files.length} files match it`,
  );
  sayLines(`harness ${m.harness.version} (commit ${m.harness.commit}), Node ${m.node}, `, m.k6);
  say(
    `SPEC.md sha256 ${m.spec.sha256}${m.spec.sha256 === ourSpec ? ' (the same as this harness)' : ' (differs from this harness: the archive holds the one it ran against)'}`,
  );
  say(
    `target: ${m.target.base_url}, tenant ${m.target.tenant}${m.target.embedded ? ' (the embedded reference server)' : ''}`,
  );
  say(`run: ${m.startedAt} to ${m.finishedAt}`);
  say(`conformance: ${m.conformance.summary}`);
  say(`load: ${m.load.summary}`);
  say(`certifiable: ${m.certifiable ? 'yes' : `no: ${m.notCertifiable.join('; ')}`}`);
};
