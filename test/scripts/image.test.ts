// The Dockerfile builds what `npm run setup` builds, and `npm run image` without podman says so in one line; the
// build and runs themselves are test/image/image.test.ts (long).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCRATCH_GO_MOD } from '../../scripts/go-tool.ts';
import { documentedLines } from '../../scripts/image.ts';
import { K6_VERSION } from '../../src/k6-driver/k6.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const DOCS = readFileSync(join(ROOT, 'docs/container.md'), 'utf8');

const argDefault = (name: string): string | undefined =>
  new RegExp(`^ARG ${name}=(\\S+)$`, 'm').exec(DOCKERFILE)?.[1];

describe('the Dockerfile', () => {
  it("builds k6 as scripts/build-k6.ts does: the pinned version, the same scratch module, harness's sources", () => {
    expect(argDefault('K6_VERSION')).toBe(K6_VERSION);
    const goMod = /printf '([^']*)' > go\.mod/.exec(DOCKERFILE)?.[1]?.replaceAll('\\n', '\n');
    expect(goMod).toBe(SCRATCH_GO_MOD);
    expect(DOCKERFILE).toContain('COPY load/checkpoint/ ./');
    expect(DOCKERFILE).toContain('go get "go.k6.io/k6/v2@${K6_VERSION}"');
    expect(DOCKERFILE).toContain("go build -trimpath -ldflags='-s -w' -o /out/k6 .");
  });

  it('names the public bases a builder pulls, labels the version harness has, and starts harness as non-root', () => {
    expect(argDefault('NODE_IMAGE')).toBe('node:22-bookworm-slim');
    expect(argDefault('GO_IMAGE')).toBe('golang:1.26-bookworm');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(argDefault('VERSION')).toBe(pkg.version);
    expect(DOCKERFILE).toMatch(/^USER harness$/m);
    expect(DOCKERFILE).toMatch(/^ENTRYPOINT \["harness"\]$/m);
    expect(DOCKERFILE).toMatch(/^VOLUME \/reports$/m);
  });
});

describe('docs/container.md', () => {
  it('gives Docker the lines npm run image runs with podman', () => {
    const podman = documentedLines(DOCS);
    expect(podman).toHaveLength(3);
    for (const line of podman) expect(line).toMatch(/^(mkdir -p reports && )?podman run --rm /);
    const docker = podman.map((line) => line.replace('podman run', 'docker run')).join('\n');
    expect(DOCS).toContain(`\`\`\`sh\n${docker}\n\`\`\``);
  });
});

describe('npm run image without podman', () => {
  it('says so in one line and exits 0', async () => {
    const path = (process.env.PATH ?? '')
      .split(delimiter)
      .filter((dir) => !existsSync(join(dir, 'podman')))
      .join(delimiter);
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'scripts/image.ts')],
        { cwd: ROOT, env: { ...process.env, PATH: path } },
        (error, stdout, stderr) =>
          done({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
      ),
    );
    expect(result).toEqual({
      status: 0,
      stdout: 'podman not installed: image not built (apt-get install podman buildah debootstrap runc)\n',
      stderr: '',
    });
  });
});
