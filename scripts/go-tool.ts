// Builds a pinned Go tool once per user and copies it into tools/: `npm run setup` runs it for k6, Toxiproxy and
// actionlint. The build lands in a cache outside the clone (~/.cache/harness/<name>-<version>/), so a fresh clone
// (CI) reuses an earlier build instead of compiling again. Without Go, a tool the cache lacks is left out with one
// line saying what that costs: conformance needs none of them.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const TOOLS = resolve(import.meta.dirname, '..', 'tools');

/** Runs `go` with harness's build settings. */
export type Go = (args: readonly string[], options?: { cwd?: string; env?: Record<string, string> }) => void;

export interface GoTool {
  /** Names the cache folder, with the version. */
  readonly name: string;
  /** The binary's file name, in tools/ and in the cache. */
  readonly binary: string;
  readonly version: string;
  /** What `bin` says its version is; it may throw when `bin` does not run. */
  readonly versionOf: (bin: string) => string | undefined;
  /** Whether what it said is the pinned version. */
  readonly isPinned: (said: string) => boolean;
  /** Builds the binary at `out`. */
  readonly build: (out: string, go: Go) => void;
}

/** A tool `npm run setup` installs into tools/. */
export interface SetupTool extends GoTool {
  /** What is missing without it and how to get it: the end of the one line a setup without Go prints. */
  readonly withoutIt: string;
}

/** What installGoTools did: `left out` when Go was needed and missing, `failed` when a build broke. */
export type Installed = 'installed' | 'left out' | 'failed';

const go: Go = (args, options = {}) => {
  execFileSync('go', args, {
    cwd: options.cwd,
    stdio: 'inherit',
    env: {
      ...process.env,
      // The proxy here serves modules but its checksum database may be unreachable; scoped to this build only.
      GOSUMDB: process.env.GOSUMDB ?? 'off',
      GOFLAGS: '-mod=mod',
      GOTOOLCHAIN: 'local',
      ...options.env,
    },
  });
};

/** The scratch module's go.mod (the Dockerfile's k6 stage writes the same). */
export const SCRATCH_GO_MOD = 'module harness/gotool\n\ngo 1.25\n';

/**
 * `go get` the pinned module into a scratch module, then `go build` the package: a plain build of the release. With
 * `sources` (a folder of harness's own Go files, package main), those are copied in and built instead, against the
 * pinned module.
 */
export const buildInScratchModule =
  (module: string, pkg: string, version: string, ldflags = '', sources?: string) =>
  (out: string, run: Go): void => {
    const work = join(dirname(out), 'module');
    mkdirSync(work, { recursive: true });
    if (sources !== undefined) cpSync(sources, work, { recursive: true });
    writeFileSync(join(work, 'go.mod'), SCRATCH_GO_MOD);
    run(['get', `${module}@${version}`], { cwd: work });
    const built = sources === undefined ? pkg : '.';
    run(['build', '-trimpath', `-ldflags=-s -w${ldflags === '' ? '' : ` ${ldflags}`}`, '-o', out, built], {
      cwd: work,
    });
  };

/** `go install pkg@version` into the cache folder, for tools that read their version from the module they are. */
export const goInstall =
  (pkg: string, version: string) =>
  (out: string, run: Go): void =>
    run(['install', `${pkg}@${version}`], { env: { GOBIN: dirname(out) } });

const cacheDirOf = (tool: GoTool): string =>
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'harness', `${tool.name}-${tool.version}`);

/** The cached build of the pinned tool (~/.cache/harness/<name>-<version>/<binary>), built first if the cache lacks it. */
export const cachedGoTool = (tool: GoTool): string => {
  const cacheDir = cacheDirOf(tool);
  const cached = join(cacheDir, tool.binary);
  if (!isPinned(tool, cached)) {
    console.log(`harness: building ${tool.name} ${tool.version} into ${cacheDir}`);
    mkdirSync(cacheDir, { recursive: true });
    tool.build(cached, go);
    if (!isPinned(tool, cached))
      throw new Error(`built ${cached}, but it says ${versionSaid(tool, cached) ?? 'nothing'}`);
  }
  return cached;
};

const versionSaid = (tool: GoTool, bin: string): string | undefined => {
  try {
    return tool.versionOf(bin);
  } catch {
    return undefined;
  }
};

const isPinned = (tool: GoTool, bin: string): boolean => {
  const version = versionSaid(tool, bin);
  return version !== undefined && tool.isPinned(version);
};

/**
 * Installs the tool into `tools` unless the cached build is there already, building it only when the cache lacks it.
 * Compared by content, not by version: a build of harness's own Go sources says the same version before and after
 * they change.
 */
const installGoTool = (tool: GoTool, tools: string): void => {
  const target = join(tools, tool.binary);
  const cached = cachedGoTool(tool);
  if (existsSync(target) && readFileSync(target).equals(readFileSync(cached))) {
    console.log(`harness: ${tool.binary} (${versionSaid(tool, target)}) already in ${tools}`);
    return;
  }
  mkdirSync(tools, { recursive: true });
  copyFileSync(cached, target);
  console.log(`harness: installed ${tool.binary} (${versionSaid(tool, target)}) at ${target}`);
};

const goOnPath = (): boolean =>
  spawnSync('go', ['env', 'GOVERSION'], { stdio: 'ignore' }).error === undefined;

/**
 * Installs each tool (see installGoTool). Without Go, those the cache lacks are left out, and one line says what
 * that costs; a failed build says so in one line below Go's own output.
 */
export const installGoTools = (list: readonly SetupTool[], tools: string = TOOLS): Installed => {
  const hasGo = goOnPath();
  const left: SetupTool[] = [];
  for (const tool of list) {
    if (!hasGo && !isPinned(tool, join(cacheDirOf(tool), tool.binary))) {
      left.push(tool);
      continue;
    }
    try {
      installGoTool(tool, tools);
    } catch (error) {
      console.error(
        `harness: ${tool.name} ${tool.version} not installed: ${(error as Error).message.split('\n')[0]}`,
      );
      return 'failed';
    }
  }
  if (left.length === 0) return 'installed';
  console.log(`no Go: conformance works; ${left.map((tool) => tool.withoutIt).join('; ')}`);
  return 'left out';
};

/** For a script that installs one tool: exit 1 unless it is installed. */
export const installOrExit = (tool: SetupTool): void => {
  if (installGoTools([tool]) !== 'installed') process.exitCode = 1;
};
