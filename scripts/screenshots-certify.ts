// Screenshots of a certification archive's index.html for docs/: a real `harness certify` against the embedded
// reference server (which never certifies: exit 1, the archive written all the same), signed with a key made for
// the run, unpacked, and its index page shot in headless Chromium at 1400 and 800 px.
// Run: `npx tsx scripts/screenshots-certify.ts` (CHROMIUM names another browser binary). About two minutes.
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runHarness, shootPage } from './doc-runs.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'harness-certify-'));
try {
  const key = join(tmp, 'key.pem');
  writeFileSync(key, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  runHarness(['certify', '--key', key, '--out', 'cert.tgz', '--report-dir', 'reports'], [1], tmp);
  const unpacked = join(tmp, 'unpacked');
  mkdirSync(unpacked);
  const tar = spawnSync('tar', ['-xzf', join(tmp, 'cert.tgz'), '-C', unpacked], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar exited ${tar.status}: ${tar.stderr}`);
  for (const width of [1400, 800] as const) {
    shootPage(join(unpacked, 'index.html'), join(root, 'docs', `certify-index-${width}.png`), width, 900);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
