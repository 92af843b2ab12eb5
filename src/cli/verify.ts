// `harness verify`: exit 0 with what was certified when the signature and every hash match, exit 1 naming the
// first mismatch otherwise, exit 2 when the archive or the key cannot be read at all.
import { createReadStream, readFileSync } from 'node:fs';
import { keyFingerprint, readPublicKey, sha256 } from '../certify/manifest.ts';
import { type Verification, verifyArchive } from '../certify/verify.ts';
import { InputError } from '../errors.ts';
import { say, terminalLines, tty } from '../printable.ts';
import { SPEC_FILE } from './certify.ts';
import { exitWith, FAILED } from './exit-codes.ts';
import type { VerifyOptions } from './report-commands.ts';

// Every name and field printed comes from the archive, so each goes through `tty`: its control and bidirectional
// characters are shown escaped, and an entry cannot clear the screen, rewrite the verdict above it or show `txt.exe`
// as `exe.txt`.

/**
 * Text of several lines (k6's version, which lists its extensions) kept on its lines, each escaped and every one
 * after the first indented under it, so none can pass for a line of harness's own (`certifiable: yes`).
 */
const indentedLines = (text: string) =>
  terminalLines(
    text
      .split(/\r?\n/)
      .filter((line, i) => i === 0 || line.trim() !== '')
      .join('\n  '),
  );

export const verify = async (archivePath: string, options: VerifyOptions): Promise<void> => {
  const key = readPublicKey(options.publicKey);
  let result: Verification;
  try {
    result = await verifyArchive(createReadStream(archivePath), key);
  } catch (error) {
    // Only the file's own errors (opening or reading it) are bad input; anything else is harness's fault.
    const { syscall, code } = error as NodeJS.ErrnoException;
    if (syscall === undefined) throw error;
    throw new InputError(`${archivePath}: cannot read (${code})`);
  }
  if (!result.ok) {
    say(tty`verification failed: ${result.mismatch}`);
    exitWith(FAILED);
    return;
  }
  const m = result.manifest;
  const ourSpec = sha256(readFileSync(SPEC_FILE));
  say(
    tty`verified: the manifest is signed by the key with sha256 ${keyFingerprint(key)}, and all ${m.files.length} files match it`,
  );
  say(tty`harness ${m.harness.version} (commit ${m.harness.commit}), Node ${m.node}, ${indentedLines(m.k6)}`);
  say(
    tty`SPEC.md sha256 ${m.spec.sha256}${m.spec.sha256 === ourSpec ? ' (the same as this harness)' : ' (differs from this harness: the archive holds the one it ran against)'}`,
  );
  say(
    tty`target: ${m.target.base_url}, tenant ${m.target.tenant}${m.target.embedded ? ' (the embedded reference server)' : ''}`,
  );
  say(tty`run: ${m.startedAt} to ${m.finishedAt}`);
  say(tty`conformance: ${m.conformance.summary}`);
  say(tty`load: ${m.load.summary}`);
  say(tty`certifiable: ${m.certifiable ? 'yes' : `no: ${m.notCertifiable.join('; ')}`}`);
};
