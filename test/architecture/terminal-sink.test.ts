// The terminal outputs of conformance and load write only through printable.ts's sink, which takes TerminalText: a
// raw console.log or stream.write of a target's text would bypass the escaping the compiler otherwise enforces.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TERMINAL_OUTPUTS = [
  'src/runner/summary.ts',
  'src/runner/proof.ts',
  'src/runner/progress.ts',
  'src/runner/live-progress.ts',
  'src/cli/load-progress.ts',
];

/** `console.*(` calls, and `.write(` calls that are not the stream a terminalSink wraps. */
const rawWrites = (source: string): string[] =>
  source
    .split('\n')
    .filter(
      (line) => /\bconsole\.\w+\(/.test(line) || (/\.write\(/.test(line) && !/terminalSink\(/.test(line)),
    );

describe('terminal outputs', () => {
  it.each(TERMINAL_OUTPUTS)('%s writes only through terminalSink or say', (file) => {
    const source = readFileSync(resolve(ROOT, file), 'utf8');
    expect(rawWrites(source)).toEqual([]);
  });

  it('would see a raw write', () => {
    expect(rawWrites('const x = 1;\nconsole.error(message);\nprocess.stderr.write(text);')).toHaveLength(2);
  });
});
