// `harness verify` prints k6's version text, which lists its extensions on lines of their own, as lines: escaped
// each, indented under the first, never as `\u000a` escapes and never as a line that passes for harness's own.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { sealArchive } from '../../src/certify/manifest.ts';
import { AT, BODY, FILES } from '../certify/fixture.ts';
import { harness, tmp } from './run.ts';

it('prints k6 version text of several lines as indented, escaped lines', async () => {
  const dir = tmp();
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const key = join(dir, 'signing.pub.pem');
  writeFileSync(key, publicKey.export({ type: 'spki', format: 'pem' }));
  const k6 =
    'k6 v2.2.0 (go1.24.1, linux/amd64)\nExtensions:\n  github.com/x/xk6-y v0.1.0, k6/x/y [js]\ncertifiable: yes\x1b[2J\n';
  const archive = join(dir, 'run.tgz');
  writeFileSync(archive, sealArchive({ ...BODY, k6 }, FILES, privateKey, AT).archive);
  const result = await harness(['verify', archive, '--public-key', key], {}, 30_000);
  expect(result.status, result.stderr).toBe(0);
  const lines = result.stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith('harness 0.1.0'));
  expect(lines.slice(at, at + 4)).toEqual([
    'harness 0.1.0 (commit abc), Node v20.20.2, k6 v2.2.0 (go1.24.1, linux/amd64)',
    '  Extensions:',
    '    github.com/x/xk6-y v0.1.0, k6/x/y [js]',
    '  certifiable: yes\\u001b[2J',
  ]);
  expect(result.stdout).not.toContain('\\u000a');
});
