// `npm run image` as CI runs it: the Dockerfile built with podman (on bases made here, no registry being reachable),
// then harness run inside it as docs/container.md prints the lines. Minutes: k6 is compiled inside the image.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasTool, needing } from '../support/tools.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BUILD_AND_RUNS_MS = 40 * 60_000;

describe('the container image', () => {
  it.skipIf(!hasTool('podman'))(
    needing('podman', "builds, runs as its own user, and runs docs/container.md's lines as printed"),
    { timeout: BUILD_AND_RUNS_MS },
    async () => {
      const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', join(ROOT, 'scripts/image.ts')],
          { cwd: ROOT, timeout: BUILD_AND_RUNS_MS, maxBuffer: 64 * 1024 * 1024 },
          (error, stdout, stderr) =>
            done({
              status: error ? (typeof error.code === 'number' ? error.code : null) : 0,
              stdout,
              stderr,
            }),
        ),
      );
      expect(result.status, result.stderr.slice(-4000)).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines).toContain(
        'image: as user 10001, conformance --only AUTH-TOKEN-TYPE wrote its reports on /reports',
      );
      expect(lines.filter((line) => line.startsWith('image: ran `'))).toHaveLength(3);
      expect(lines.at(-1)).toBe(
        "image: harness built; it ran as user 10001, and docs/container.md's lines ran as printed",
      );
    },
  );
});
