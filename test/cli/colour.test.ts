// Colour as a person at a terminal sees it: `script` gives harness a pseudo-terminal, as an interactive shell would.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hasTool, needing } from '../support/tools.ts';
import { BIN, tmp } from './run.ts';

const atTerminal = (env: NodeJS.ProcessEnv): Promise<string> =>
  new Promise((resolve, reject) => {
    const command = `${process.execPath} ${BIN} conformance --only AUTH-TOKEN-TYPE --report-dir ${tmp()}`;
    execFile('script', ['-qc', command, '/dev/null'], { env: { ...process.env, ...env } }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });

describe.skipIf(!hasTool('script'))(needing('script', 'grades in colour'), () => {
  it('on a terminal, the grade is green', async () => {
    // An empty NO_COLOR asks for nothing (https://no-color.org), so one set by the environment is neutralised.
    expect(await atTerminal({ NO_COLOR: '' })).toContain('\u001b[32mPASS\u001b[39m  AUTH-TOKEN-TYPE');
  }, 60_000);

  it('with NO_COLOR set, plain', async () => {
    expect(await atTerminal({ NO_COLOR: '1' })).not.toContain('\u001b[3');
  }, 60_000);
});
