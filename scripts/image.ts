// `npm run image`: builds the Dockerfile with podman into the image `harness`, then runs it as a user would:
// `harness --help`, a conformance run against the embedded server and a short load run, reports on a mounted
// /reports. No registry is reachable on the machines harness is developed on, so by default the Dockerfile's
// public bases are replaced, through its NODE_IMAGE and GO_IMAGE build arguments, with bases made here: Debian from
// debootstrap, with this machine's Node and Go copied in (--public-bases pulls the public ones instead).
// Without podman it says so in one line and exits 0: the image is an extra, not what harness needs.
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { harnessCommit, harnessVersion } from '../src/version.ts';

const ROOT = resolve(import.meta.dirname, '..');
const IMAGE = 'harness';
const DEBIAN_BASE = 'localhost/harness-bookworm:1';
const HOST_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
/** The user the Dockerfile runs harness as. */
const IMAGE_UID = 10001;

class ImageError extends Error {}

const onPath = (command: string): boolean =>
  spawnSync(command, ['--version'], { stdio: 'ignore' }).error === undefined;

const output = (command: string, args: readonly string[]): string => {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new ImageError(
      `${command} ${args.join(' ')} failed: ${result.error?.message ?? result.stderr.trim()}`,
    );
  return result.stdout.trim();
};

/**
 * podman's settings for these machines, in a containers.conf (CONTAINERS_CONF) so that docs/container.md's lines run
 * as printed: crun refuses their hybrid cgroups, neither runtime may set rlimits, and a container gets no network
 * namespace of its own (FACTS: containers). A CONTAINERS_CONF already set wins.
 */
const engineEnv = (): NodeJS.ProcessEnv => {
  if (process.env.CONTAINERS_CONF !== undefined) return process.env;
  const state = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'harness', 'image');
  mkdirSync(state, { recursive: true });
  const conf = join(state, 'containers.conf');
  const runtime = onPath('runc') ? '[engine]\nruntime = "runc"\n' : '';
  writeFileSync(conf, `[containers]\ndefault_ulimits = []\nnetns = "host"\n${runtime}`);
  return { ...process.env, CONTAINERS_CONF: conf };
};

type Podman = (
  args: readonly string[],
  options?: SpawnSyncOptions,
) => { status: number | null; stdout: string };

const podmanWith =
  (env: NodeJS.ProcessEnv): Podman =>
  (args, options = {}) => {
    const result = spawnSync('podman', args, { env, encoding: 'utf8', ...options });
    if (result.error) throw new ImageError(`podman ${args[0]}: ${result.error.message}`);
    return { status: result.status, stdout: String(result.stdout ?? '') };
  };

const built = (podman: Podman, args: readonly string[], what: string): void => {
  if (podman(args, { stdio: 'inherit' }).status !== 0)
    throw new ImageError(`${what}: podman ${args[0]} failed`);
};

const exists = (podman: Podman, image: string): boolean =>
  podman(['image', 'exists', image], { stdio: 'ignore' }).status === 0;

/** The Debian mirror apt uses here, for debootstrap. */
const debianMirror = (): string => {
  for (const file of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    if (!existsSync(file)) continue;
    const uri = /^(?:URIs:|deb)\s+(?:\[[^\]]*\]\s+)?(\S*\/debian)\s*$/m.exec(readFileSync(file, 'utf8'))?.[1];
    if (uri !== undefined) return uri;
  }
  return 'http://deb.debian.org/debian';
};

const makeDebianBase = (podman: Podman): void => {
  if (exists(podman, DEBIAN_BASE)) return;
  if (!onPath('debootstrap') && !existsSync('/usr/sbin/debootstrap'))
    throw new ImageError('debootstrap not installed (apt-get install debootstrap): no base to build on');
  const root = mkdtempSync(join(tmpdir(), 'harness-bookworm-'));
  try {
    console.log(`image: making ${DEBIAN_BASE} with debootstrap from ${debianMirror()}`);
    const args = ['--variant=minbase', '--include=ca-certificates', 'bookworm', root, debianMirror()];
    if (spawnSync('debootstrap', args, { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0)
      throw new ImageError('debootstrap failed');
    // The authorities this machine trusts: an egress proxy that inspects TLS signs with one of its own.
    if (existsSync(HOST_CA_BUNDLE)) cpSync(HOST_CA_BUNDLE, join(root, 'etc/ssl/certs/ca-certificates.crt'));
    const tarball = `${root}.tar`;
    output('tar', ['-C', root, '-cf', tarball, '.']);
    built(podman, ['import', tarball, DEBIAN_BASE], 'importing the Debian base');
    rmSync(tarball);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};

/** A base made from a Containerfile and the files it copies, unless it is there already. */
const makeBase = (
  podman: Podman,
  image: string,
  containerfile: string,
  files: Record<string, string>,
): void => {
  if (exists(podman, image)) return;
  const context = mkdtempSync(join(tmpdir(), 'harness-base-'));
  try {
    console.log(`image: making ${image}`);
    for (const [name, from] of Object.entries(files)) cpSync(from, join(context, name), { recursive: true });
    writeFileSync(join(context, 'Containerfile'), containerfile);
    built(podman, ['build', '--network=host', '--isolation=chroot', '-t', image, context], `making ${image}`);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
};

/** This machine's Node and npm on the Debian base, standing in for node:22-bookworm-slim. */
const makeNodeBase = (podman: Podman): string => {
  const image = `localhost/harness-node-base:${process.versions.node}`;
  const npm = resolve(dirname(realpathSync(output('sh', ['-c', 'command -v npm']))), '..');
  makeBase(
    podman,
    image,
    `FROM ${DEBIAN_BASE}\nCOPY node /usr/local/bin/node\nCOPY npm /usr/local/lib/node_modules/npm\n` +
      'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm' +
      ' && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx\n' +
      `ENV NODE_EXTRA_CA_CERTS=${HOST_CA_BUNDLE}\n`,
    { node: process.execPath, npm },
  );
  return image;
};

/** This machine's Go toolchain on the Debian base, standing in for golang:1.26-bookworm. */
const makeGoBase = (podman: Podman): string => {
  const version = output('go', ['env', 'GOVERSION']);
  const image = `localhost/harness-go-base:${version}`;
  makeBase(
    podman,
    image,
    `FROM ${DEBIAN_BASE}\nCOPY go /usr/local/go\nENV PATH=/usr/local/go/bin:$PATH GOPATH=/go\n`,
    { go: output('go', ['env', 'GOROOT']) },
  );
  return image;
};

/** Build arguments that swap the public bases for local ones, and reach the module proxy this machine reaches. */
const localBuildArgs = (podman: Podman): string[] => {
  makeDebianBase(podman);
  return [
    `NODE_IMAGE=${makeNodeBase(podman)}`,
    `GO_IMAGE=${makeGoBase(podman)}`,
    `GOPROXY=${output('go', ['env', 'GOPROXY'])}`,
    // Its checksum database may be unreachable, as for scripts/build-k6.ts.
    `GOSUMDB=${process.env.GOSUMDB ?? 'off'}`,
  ];
};

const buildImage = (podman: Podman, publicBases: boolean): void => {
  const args = [
    ...(publicBases ? [] : localBuildArgs(podman)),
    `REVISION=${harnessCommit()}`,
    `VERSION=${harnessVersion()}`,
    `CREATED=${new Date().toISOString()}`,
  ];
  console.log(`image: building ${IMAGE} from ${join(ROOT, 'Dockerfile')}`);
  const buildArgs = args.flatMap((arg) => ['--build-arg', arg]);
  built(
    podman,
    ['build', '--network=host', '--isolation=chroot', '-t', IMAGE, ...buildArgs, ROOT],
    `building ${IMAGE}`,
  );
};

const DOCS = join(ROOT, 'docs/container.md');
const DOCS_MARK = '<!-- npm run image runs these lines as printed, in an empty folder. -->';

/** The lines docs/container.md promises run as printed: the shell block after its mark. */
export const documentedLines = (text: string): string[] => {
  const block = /^```sh\n([\s\S]*?)^```/m.exec(text.slice(text.indexOf(DOCS_MARK)))?.[1];
  if (!text.includes(DOCS_MARK) || block === undefined)
    throw new ImageError(`${DOCS} has no block after its mark`);
  return block.trimEnd().split('\n');
};

/** What each documented line must end with: a load run may end 5 (no verdict) on a machine starved of CPU. */
const passes = (line: string, status: number | null, stdout: string): boolean => {
  if (line.endsWith('--help')) return status === 0 && stdout.startsWith('Usage: harness');
  return status === 0 || (/ harness load /.test(line) && status === 5);
};

const runDocumented = (env: NodeJS.ProcessEnv): void => {
  const folder = mkdtempSync(join(tmpdir(), 'harness-image-docs-'));
  try {
    for (const line of documentedLines(readFileSync(DOCS, 'utf8'))) {
      const run = spawnSync('sh', ['-c', line], {
        cwd: folder,
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      if (!passes(line, run.status, run.stdout)) {
        process.stdout.write(run.stdout);
        throw new ImageError(`docs/container.md: \`${line}\` exited ${run.status}`);
      }
      console.log(`image: ran \`${line}\`: exit ${run.status}`);
    }
    // One folder per run, conformance's and load's, beside the latest link.
    const reports = join(folder, 'reports');
    const runs = existsSync(reports) ? readdirSync(reports).filter((name) => name !== 'latest') : [];
    if (runs.length !== 2 || !runs.some((run) => existsSync(join(reports, run, 'conformance.json'))))
      throw new ImageError(
        `docs/container.md's runs wrote ${runs.length} report folders into ${reports}, not 2`,
      );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
};

/** The image's own user, not root, writes the reports on the mounted /reports. */
const runAsImageUser = (podman: Podman): void => {
  const user = podman(['run', '--rm', '--entrypoint', 'id', IMAGE, '-u']).stdout.trim();
  if (user !== String(IMAGE_UID))
    throw new ImageError(`the image runs as user ${user || '?'}, not ${IMAGE_UID}`);
  const reports = mkdtempSync(join(tmpdir(), 'harness-image-reports-'));
  chmodSync(reports, 0o777);
  try {
    const args = [
      'run',
      '--rm',
      '-v',
      `${reports}:/reports`,
      IMAGE,
      'conformance',
      '--only',
      'AUTH-TOKEN-TYPE',
    ];
    const run = podman(args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (run.status !== 0 || !existsSync(join(reports, 'latest/conformance.json')))
      throw new ImageError(
        `as user ${IMAGE_UID}, conformance exited ${run.status} or wrote no reports on /reports`,
      );
    console.log(
      `image: as user ${IMAGE_UID}, conformance --only AUTH-TOKEN-TYPE wrote its reports on /reports`,
    );
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
};

const main = (): number => {
  if (!onPath('podman')) {
    console.log('podman not installed: image not built (apt-get install podman buildah debootstrap runc)');
    return 0;
  }
  const env = engineEnv();
  const podman = podmanWith(env);
  try {
    buildImage(podman, process.argv.includes('--public-bases'));
    runAsImageUser(podman);
    runDocumented(env);
  } catch (error) {
    if (!(error instanceof ImageError)) throw error;
    console.error(`image: ${error.message}`);
    return 1;
  }
  console.log(
    `image: ${IMAGE} built; it ran as user ${IMAGE_UID}, and docs/container.md's lines ran as printed`,
  );
  return 0;
};

if (process.argv[1] === import.meta.filename) process.exitCode = main();
