// The terminal outputs of conformance, load and the commands around them (replay, certify, verify, the prologue and
// end every run shares, and main's error line) write only through printable.ts's sink, which takes TerminalText: a
// raw console.log or stream.write of a target's or a file's text would bypass the escaping the compiler otherwise
// enforces.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TERMINAL_OUTPUTS = [
  'src/terminal/summary.ts',
  'src/terminal/proof.ts',
  'src/terminal/progress.ts',
  'src/terminal/live-progress.ts',
  'src/terminal/load-progress.ts',
  'src/cli/load.ts',
  'src/cli/load-merge.ts',
  'src/cli/main.ts',
  'src/cli/prologue.ts',
  'src/cli/run-end.ts',
  'src/cli/report-dir.ts',
  'src/cli/certify.ts',
  'src/cli/verify.ts',
  'src/cli/replay.ts',
  'src/cli/conformance.ts',
];

/**
 * `console.*` calls, or a console method handed on as a writer (endRun's default once was `console.error`), and
 * writes that are not the stream a terminalSink wraps (itself, or as lineProgress, which hands its writer to one).
 */
const rawWrites = (source: string): string[] =>
  source
    .split('\n')
    .filter(
      (line) =>
        /\bconsole\.(log|error|warn|info|debug)\b|\.write\(/.test(line) &&
        !/\b(terminalSink|lineProgress)\(/.test(line),
    );

describe('terminal outputs', () => {
  it.each(TERMINAL_OUTPUTS)('%s writes only through terminalSink or say', (file) => {
    const source = readFileSync(resolve(ROOT, file), 'utf8');
    expect(rawWrites(source)).toEqual([]);
  });

  it('would see a raw write', () => {
    expect(rawWrites('const x = 1;\nconsole.error(message);\nprocess.stderr.write(text);')).toHaveLength(2);
  });

  it('would see a string escaped by hand on its way to the console, which names no sink and can be forgotten', () => {
    // replay.ts and verify.ts wrote so before they took the sink.
    expect(rawWrites("const out = (line = ''): void => console.log(printable(line));")).toHaveLength(1);
  });

  it('would see a console method handed on as the writer', () => {
    expect(rawWrites('export const endRun = (end: RunEnd, say = console.error): number => {')).toHaveLength(
      1,
    );
  });

  it('lets a line through that writes through the sink', () => {
    expect(rawWrites('complain(tty`harness: ${reason}`);\nsay(tty`reports: ${files}`);')).toEqual([]);
  });
});
