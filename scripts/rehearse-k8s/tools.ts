// The real control plane the rehearsal runs, built from what this machine's package sources serve and cached per
// user in ~/.cache/harness like k6 (scripts/go-tool.ts), so only the first rehearsal pays the builds.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cachedGoTool } from '../go-tool.ts';

export const KUBERNETES_VERSION = 'v1.37.2';
/** The commit of the vendored CRD (test/fixtures/k6-operator/SOURCE.md), two after v1.6.0; `version` is Go's name. */
export const K6_OPERATOR = {
  module: 'github.com/grafana/k6-operator',
  commit: 'e2c9571ac480ad7ca8ed019062ff67847d76724e',
  version: 'v1.6.1-0.20260820185309-e2c9571ac480',
} as const;

// The settings of scripts/go-tool.ts's builds, for the `go` queries made here.
const goEnv = { ...process.env, GOSUMDB: process.env.GOSUMDB ?? 'off', GOTOOLCHAIN: 'local' };

const output = (command: string, args: readonly string[], cwd?: string): string =>
  execFileSync(command, args, { cwd, env: goEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const firstLine = (bin: string, args: readonly string[]): string => output(bin, args).split('\n')[0] ?? '';

/** Debian's etcd: `apt-get download` and `dpkg -x`, so nothing is installed system-wide. */
const etcd = () => {
  const version = /^Version: (\S+)/m.exec(
    output('apt-cache', ['show', '--no-all-versions', 'etcd-server']),
  )?.[1];
  if (version === undefined) throw new Error('apt-cache knows no etcd-server package');
  const upstream = version.split('-')[0];
  return cachedGoTool({
    name: 'etcd',
    binary: 'etcd',
    version,
    versionOf: (bin) => firstLine(bin, ['--version']),
    isPinned: (line) => line === `etcd Version: ${upstream}`,
    build: (out) => {
      const work = join(dirname(out), 'deb');
      rmSync(work, { recursive: true, force: true });
      mkdirSync(work, { recursive: true });
      output('apt-get', ['download', 'etcd-server'], work);
      const deb = readdirSync(work).find((file) => file.endsWith('.deb'));
      if (deb === undefined) throw new Error('apt-get download etcd-server wrote no .deb');
      output('dpkg', ['-x', deb, 'root'], work);
      cpSync(join(work, 'root', 'usr', 'bin', 'etcd'), out);
      rmSync(work, { recursive: true, force: true });
    },
  });
};

/**
 * kube-apiserver from k8s.io/kubernetes. That module asks for every k8s.io staging module at v0.0.0 (it replaces
 * them with its own folders), so a wrapper module replaces each with its v0.N.M tag; `go install` of the command
 * itself refuses a module with replace directives.
 */
const kubeApiserver = () =>
  cachedGoTool({
    name: 'kube-apiserver',
    binary: 'kube-apiserver',
    version: KUBERNETES_VERSION,
    versionOf: (bin) => firstLine(bin, ['--version']),
    isPinned: (line) => line === `Kubernetes ${KUBERNETES_VERSION}`,
    build: (out, go) => {
      const work = join(dirname(out), 'module');
      mkdirSync(work, { recursive: true });
      const kubernetes = `k8s.io/kubernetes@${KUBERNETES_VERSION}`;
      go(['mod', 'download', kubernetes]);
      const modCache = output('go', ['env', 'GOMODCACHE']).trim();
      const upstream = readFileSync(
        join(modCache, 'cache', 'download', 'k8s.io', 'kubernetes', '@v', `${KUBERNETES_VERSION}.mod`),
        'utf8',
      );
      const staging = [...upstream.matchAll(/^\s+(k8s\.io\/[a-z-]+) v0\.0\.0$/gm)].map((match) => match[1]);
      const tag = KUBERNETES_VERSION.replace(/^v1\./, 'v0.');
      writeFileSync(
        join(work, 'go.mod'),
        `module harness/kubeapiserver\n\ngo 1.26.0\n\nrequire k8s.io/kubernetes ${KUBERNETES_VERSION}\n\nreplace (\n${staging
          .map((module) => `\t${module} => ${module} ${tag}\n`)
          .join('')})\n`,
      );
      // The release build stamps its version this way; without it `--version` says v0.0.0-master.
      const [major, minor] = KUBERNETES_VERSION.slice(1).split('.');
      const stamp = ['gitVersion', KUBERNETES_VERSION, 'gitMajor', major, 'gitMinor', minor];
      const ldflags = [0, 2, 4]
        .map((i) => `-X k8s.io/component-base/version.${stamp[i]}=${stamp[i + 1]}`)
        .join(' ');
      go(
        [
          'build',
          '-trimpath',
          `-ldflags=-s -w ${ldflags}`,
          '-o',
          out,
          'k8s.io/kubernetes/cmd/kube-apiserver',
        ],
        {
          cwd: work,
        },
      );
    },
  });

/**
 * k6-operator at the CRD's commit, `go build ./cmd` as its Makefile does. The binary has no version flag, so a file
 * beside it names the commit it was built from. Its source comes from the Go module proxy, or, where the proxy does
 * not serve it, from a git clone named by HARNESS_K6_OPERATOR_GIT.
 */
const k6Operator = () =>
  cachedGoTool({
    name: 'k6-operator',
    binary: 'k6-operator',
    version: K6_OPERATOR.commit.slice(0, 12),
    versionOf: (bin) => (existsSync(bin) ? readFileSync(`${bin}.commit`, 'utf8').trim() : undefined),
    isPinned: (commit) => commit === K6_OPERATOR.commit,
    build: (out, go) => {
      const src = join(dirname(out), 'src');
      rmSync(src, { recursive: true, force: true });
      copyOperatorSource(src);
      go(['build', '-trimpath', '-ldflags=-s -w', '-o', out, './cmd'], { cwd: src });
      writeFileSync(`${out}.commit`, `${K6_OPERATOR.commit}\n`);
    },
  });

/** A source the rehearsal needs is not to be had here: the user can fix it, so it is one line, not a stack trace. */
export class SourceUnavailable extends Error {}

const copyOperatorSource = (to: string): void => {
  const git = process.env.HARNESS_K6_OPERATOR_GIT;
  if (git !== undefined && git !== '') {
    mkdirSync(to, { recursive: true });
    const archive = execFileSync('git', ['--git-dir', git, 'archive', K6_OPERATOR.commit], {
      maxBuffer: 1 << 30,
    });
    execFileSync('tar', ['-x', '-C', to], { input: archive });
    return;
  }
  let info: { Dir?: string; Error?: string };
  try {
    info = JSON.parse(
      output('go', ['mod', 'download', '-json', `${K6_OPERATOR.module}@${K6_OPERATOR.commit}`]),
    );
  } catch (error) {
    const said = (error as { stdout?: string }).stdout ?? '';
    info = said.startsWith('{') ? JSON.parse(said) : { Error: String(error) };
  }
  if (info.Dir === undefined) {
    throw new SourceUnavailable(
      `the Go module proxy does not serve ${K6_OPERATOR.module}@${K6_OPERATOR.commit} (${info.Error?.split('\n')[0]}); set HARNESS_K6_OPERATOR_GIT to a git clone of grafana/k6-operator that has the commit`,
    );
  }
  cpSync(info.Dir, to, { recursive: true });
  // The module cache's files are read-only; the copy must stay removable.
  execFileSync('chmod', ['-R', 'u+w', to]);
};

export interface ControlPlaneBinaries {
  readonly etcd: string;
  readonly kubeApiserver: string;
  readonly k6Operator: string;
  /** The operator's own CRDs, from the source it was built from. */
  readonly operatorCrds: string;
}

/** Builds what the cache lacks, saying how long each took (a cached tool takes well under a second). */
export const buildControlPlane = (): ControlPlaneBinaries => {
  const timed = (name: string, build: () => string): string => {
    const started = Date.now();
    const bin = build();
    console.log(`harness: ${name} ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${bin}`);
    return bin;
  };
  const operator = timed('k6-operator', k6Operator);
  return {
    etcd: timed('etcd', etcd),
    kubeApiserver: timed('kube-apiserver', kubeApiserver),
    k6Operator: operator,
    operatorCrds: join(dirname(operator), 'src', 'config', 'crd', 'bases'),
  };
};
