// harness as a user gets it: `npm pack`, installed into an empty folder, run from there with `npx`. Offline: npm 11
// asks the registry for full package documents, which the npm cache (filled by this repository's install) does
// not hold, so the folder gets a lock file pinning the tarball's dependencies to the versions and integrity hashes
// of this repository's lock; npm then takes every tarball from its cache.
import { type ExecFileException, execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { K8S_FILES } from '../../src/k6-driver/k8s.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import { profileFor, tmp } from '../cli/run.ts';
import { expectNoFail } from '../load/run-load.ts';
import { hasTool, needing } from '../support/tools.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TOOLS_K6 = join(ROOT, 'tools/k6');
const SLOW = { timeout: 240_000 };

interface Package {
  name: string;
  version: string;
  license: string;
  private?: boolean;
  bin: Record<string, string>;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
}

interface LockEntry {
  version: string;
  dependencies?: Record<string, string>;
  dev?: boolean;
}

/** A lock for a folder depending on the tarball alone, every dependency as this repository's lock pins it. */
const lockFor = (tarball: string, pkg: Package) => {
  const repo = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const file = `file:${tarball.split('/').at(-1)}`;
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { [pkg.name]: file } },
    [`node_modules/${pkg.name}`]: {
      version: pkg.version,
      resolved: file,
      integrity,
      dependencies: pkg.dependencies,
      // npm links node_modules/.bin from the lock's record of the package, not from the package itself.
      bin: pkg.bin,
    },
  };
  const pending = Object.keys(pkg.dependencies);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const key = `node_modules/${name}`;
    if (key in packages) continue;
    const { dev: _dev, ...entry } = repo.packages[key]!;
    packages[key] = entry;
    pending.push(...Object.keys(entry.dependencies ?? {}));
  }
  return { name: 'consumer', lockfileVersion: 3, requires: true, packages };
};

const run = (cwd: string, args: string[], env: NodeJS.ProcessEnv) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((done) => {
    // --no-install: never fetch a registry package that happens to be called harness.
    execFile(
      'npx',
      ['--no-install', 'harness', ...args],
      { cwd, env, timeout: 180_000 },
      (error, stdout, stderr) =>
        done({ status: error ? Number((error as ExecFileException).code) : 0, stdout, stderr }),
    );
  });

describe('the npm package', SLOW, () => {
  const folder = tmp();
  let tarball: string;
  let pkg: Package;
  /** No k6 on PATH and no K6_BIN: only node and npm. */
  const bare: NodeJS.ProcessEnv = {
    HOME: process.env.HOME,
    PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
  };

  beforeAll(() => {
    const packed = tmp();
    execFileSync('npm', ['pack', '--pack-destination', packed], { cwd: ROOT, stdio: 'pipe' });
    tarball = join(packed, readdirSync(packed).find((f) => f.endsWith('.tgz'))!);
    pkg = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    execFileSync('cp', [tarball, folder]);
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        dependencies: { [pkg.name]: `file:${tarball.split('/').at(-1)}` },
      }),
    );
    writeFileSync(join(folder, 'package-lock.json'), JSON.stringify(lockFor(tarball, pkg), null, 2));
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund'], { cwd: folder, stdio: 'pipe' });
  }, SLOW.timeout);

  it("ships compiled JavaScript, k6's TypeScript (load/ and core/), SPEC.md and the licence, and no src/", () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    expect(files).toEqual(
      expect.arrayContaining([
        'package/LICENSE',
        'package/bin/harness.js',
        'package/dist/src/cli/main.js',
        'package/dist/src/spec/SPEC.md',
        'package/dist/load/probe.ts',
        'package/dist/load/probe.bundle.js',
        'package/dist/load/lib/spec.generated.json',
        'package/dist/core/load-env.ts',
        'package/dist/core/load-env.js',
        'package/dist/build-info.json',
      ]),
    );
    expect(
      files.filter(
        (f) =>
          /^package\/(src|test|scripts)\//.test(f) ||
          /^package\/dist\/src\/.*\.ts$/.test(f) ||
          /\btestbed\b/.test(f),
      ),
    ).toEqual([]);
    expect(pkg.private).toBeUndefined();
    expect(pkg.license).toBe('Apache-2.0');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(
      /^\s*Apache License\s+Version 2\.0, January 2004/,
    );
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
  });

  it('ships what package.json files names and no test code, and says which Node it needs', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    // npm adds the manifest, README and licence to what `files` names.
    expect([...new Set(files.map((f) => f.split('/')[1]))].sort()).toEqual([
      'LICENSE',
      'README.md',
      'bin',
      'dist',
      'package.json',
      'schema',
    ]);
    expect(files).toContain('package/schema/profile.schema.json');
    expect(files.filter((f) => /\.test\.[cm]?[jt]s$|\/(test|tests|__tests__|fixtures)\//.test(f))).toEqual(
      [],
    );
    const repo = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Package;
    expect(pkg.engines).toEqual({ node: '>=20.18.1 <21 || >=22' });
    expect(pkg.engines).toEqual(repo.engines);
    for (const bin of Object.values(pkg.bin)) {
      expect(execFileSync('tar', ['-xzOf', tarball, `package/${bin}`], { encoding: 'utf8' })).toMatch(
        /^#!\/usr\/bin\/env node\n/,
      );
    }
  });

  it('prints the profile schema it ships', async () => {
    const printed = await run(folder, ['conformance', '--print-profile-schema'], bare);
    expect(printed.status).toBe(0);
    expect(printed.stdout).toBe(
      readFileSync(join(folder, 'node_modules', pkg.name, 'schema/profile.schema.json'), 'utf8'),
    );
    expect(JSON.parse(printed.stdout)).toMatchObject({ title: 'harness profile' });
  });

  it('is published under a name free on npm (harness is taken) and still installs the harness command', () => {
    expect(pkg.name).toBe('conformance-harness');
    expect(tarball.split('/').at(-1)).toBe(`conformance-harness-${pkg.version}.tgz`);
    expect(pkg.bin).toEqual({ harness: 'bin/harness.js' });
    expect(realpathSync(join(folder, 'node_modules/.bin/harness'))).toBe(
      realpathSync(join(folder, 'node_modules', pkg.name, 'bin/harness.js')),
    );
  });

  it('prints its version', async () => {
    const version = await run(folder, ['--version'], bare);
    expect(version).toMatchObject({ status: 0, stdout: `${pkg.version}\n` });
  });

  it('runs conformance against the embedded server and writes its reports, with neither Go nor k6', async () => {
    const conformance = await run(folder, ['conformance'], bare);
    expect(conformance.status, conformance.stderr).toBe(0);
    expect(conformance.stdout).toMatch(/^summary: \d+ checks in [\d.]+ s: 0 FAIL, 0 INCONCLUSIVE/m);
    const latest = realpathSync(join(folder, 'reports/latest'));
    expect(readdirSync(latest).sort()).toEqual([
      'conformance.html',
      'conformance.json',
      'conformance.md',
      'conformance.xml',
      'index.html',
    ]);
  });

  it('refuses to load without a k6 v2, saying how to build one', async () => {
    const none = await run(folder, ['load'], bare);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(
      /^harness: no k6 v2\.x in K6_BIN, tools\/ or PATH: build the pinned one .*go install go\.k6\.io\/k6\/v2@v2\.2\.0/m,
    );
    const old = join(tmp(), 'k6');
    writeFileSync(old, '#!/bin/sh\necho "k6 v1.4.0 (go1.24.0, linux/amd64)"\n');
    chmodSync(old, 0o755);
    const v1 = await run(folder, ['load'], { ...bare, K6_BIN: old });
    expect(v1.status).toBe(2);
    expect(v1.stderr).toContain(`harness: K6_BIN: ${old} (k6 v1.4.0) is not k6 v2.x;`);
  });

  it('writes k6-operator manifests (--k8s) with the probe bundled at build time, with no esbuild installed', async () => {
    const server = await startReferenceServer({});
    try {
      const { file, env } = profileFor(server);
      const dir = join(tmp(), 'k8s');
      const args = ['load', '--profile', file, '--k8s', dir, '--instances', '2', '--image', 'k6:test'];
      const written = await run(folder, args, { ...bare, ...env });
      expect(written.status, written.stderr).toBe(0);
      expect(existsSync(join(folder, 'node_modules/esbuild'))).toBe(false);
      const [configMap] = parseAllDocuments(readFileSync(join(dir, K8S_FILES.configMap), 'utf8'));
      const data = (configMap!.toJS() as { data: Record<string, string> }).data;
      expect(data['probe.js']).toBe(
        readFileSync(join(folder, 'node_modules', pkg.name, 'dist/load/probe.bundle.js'), 'utf8'),
      );
      expect(data['probe.js']).toMatch(/from "k6\/http"/);
    } finally {
      await server.close();
    }
  });

  it.skipIf(!hasTool('k6'))(needing('k6', 'runs load with a stock k6 v2 from K6_BIN'), async () => {
    const load = await run(folder, ['load', '--scenario', 'schedule', '--duration', '2s'], {
      ...bare,
      K6_BIN: TOOLS_K6,
    });
    // What matters here is that k6 ran from the package; a starved machine may leave a phase INCONCLUSIVE.
    expectNoFail(load);
    const latest = realpathSync(join(folder, 'reports/latest'));
    expect(readFileSync(join(latest, 'load-schedule.xml'), 'utf8').match(/<testcase /g)).toHaveLength(3);
  });
});
