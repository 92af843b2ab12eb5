// Whether chmod binds whoever runs the tests: it binds no one running as root, so a read-only folder test there
// would have nothing to show and is skipped.
import { accessSync, chmodSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const chmodBinds = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-chmod-'));
  try {
    chmodSync(dir, 0o555);
    accessSync(dir, constants.W_OK);
    return false;
  } catch {
    return true;
  } finally {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
})();
