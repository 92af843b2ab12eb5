// `npm run setup` without Go: conformance needs none of the Go tools, so a machine without Go gets one line saying
// what is left out and how to get it, never a stack trace (it was `spawnSync go ENOENT`).
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installGoTools, type SetupTool } from '../../scripts/go-tool.ts';
import { tmp } from '../cli/run.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const WITHOUT_GO = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => !existsSync(join(dir, 'go')))
  .join(delimiter);

/** Runs a setup script as npm does, on a PATH without Go and with an empty build cache. */
const runScript = (script: string) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    const env = { ...process.env, PATH: WITHOUT_GO, XDG_CACHE_HOME: tmp() };
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts', script)],
      { env, cwd: ROOT },
      (error, stdout, stderr) =>
        done({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });

const NPM_SCRIPTS = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

const expectNoStackTrace = (output: string) => {
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain('ENOENT');
};

describe('setup without Go', () => {
  it('says in one line what npm run setup leaves out, names commands that exist, and exits 0', async () => {
    expect(NPM_SCRIPTS.setup).toMatch(/&& tsx scripts\/build-tools\.ts$/);
    const result = await runScript('build-tools.ts');
    expect(result.status).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^no Go: conformance works; load needs k6 v2: .*; the network tests need Toxiproxy/,
    );
    for (const [, name] of lines[0]!.matchAll(/`npm run ([\w:]+)`/g))
      expect(NPM_SCRIPTS).toHaveProperty(name!);
    expect(result.stderr).toBe('');
  });

  it('npm run build:k6 alone says the same of k6, and exits 1: what it was asked for is not there', async () => {
    const result = await runScript('build-k6.ts');
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /^no Go: conformance works; load needs k6 v2: [^\n]*docs\/container\.md\)\n$/,
    );
    expectNoStackTrace(result.stdout + result.stderr);
  });
});

describe('installGoTools', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  /** A tool whose "binary" is a script saying its version; `build` writes it, or breaks as Go would. */
  const fakeTool = (build: SetupTool['build']): SetupTool => ({
    name: 'fake',
    binary: 'fake',
    version: 'v1.0.0',
    versionOf: (bin) => readFileSync(bin, 'utf8').split('\n')[1],
    isPinned: (said) => said === '# v1.0.0',
    build,
    withoutIt: 'nothing needs the fake tool',
  });
  const writeFake = (out: string) => {
    writeFileSync(out, '#!/bin/sh\n# v1.0.0\n');
    chmodSync(out, 0o755);
  };

  it('installs a cached build without Go: only a build needs Go', () => {
    const cache = tmp();
    vi.stubEnv('XDG_CACHE_HOME', cache);
    mkdirSync(join(cache, 'harness/fake-v1.0.0'), { recursive: true });
    writeFake(join(cache, 'harness/fake-v1.0.0/fake'));
    vi.stubEnv('PATH', WITHOUT_GO);
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const tools = tmp();
    expect(installGoTools([fakeTool(writeFake)], tools)).toBe('installed');
    expect(readFileSync(join(tools, 'fake'), 'utf8')).toContain('# v1.0.0');
  });

  it('leaves out a tool the cache lacks when Go is missing, installing nothing', () => {
    vi.stubEnv('XDG_CACHE_HOME', tmp());
    vi.stubEnv('PATH', WITHOUT_GO);
    const tools = tmp();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(installGoTools([fakeTool(writeFake)], tools)).toBe('left out');
    expect(log.mock.calls).toEqual([['no Go: conformance works; nothing needs the fake tool']]);
    expect(existsSync(join(tools, 'fake'))).toBe(false);
  });

  it('reports a broken build in one line, not a stack trace', () => {
    vi.stubEnv('XDG_CACHE_HOME', tmp());
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const broken = fakeTool(() => {
      throw new Error('Command failed: go build\nexit status 1');
    });
    expect(installGoTools([broken], tmp())).toBe('failed');
    expect(error.mock.calls).toEqual([['harness: fake v1.0.0 not installed: Command failed: go build']]);
  });
});
