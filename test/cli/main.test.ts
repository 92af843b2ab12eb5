// main's error line names the file, field or flag it could not take, and that name is the user's or a file's: a
// control in it is shown escaped, as every other terminal line shows one, never obeyed.
import { expect, it } from 'vitest';
import { harness } from './run.ts';

it('shows the C1 controls and bidi override of a bad path as escapes on its one error line', async () => {
  const path = '/tmp/no-such-profile\u009b2J\u009b8m\u202e.yaml';
  const result = await harness(['conformance', '--profile', path]);
  expect(result.status).toBe(2);
  expect(result.stderr).toBe(
    'harness: --profile /tmp/no-such-profile\\u009b2J\\u009b8m\\u202e.yaml: cannot read: ENOENT\n',
  );
  expect(result.stderr).not.toMatch(/[\u0080-\u009f\u202e]/);
});
