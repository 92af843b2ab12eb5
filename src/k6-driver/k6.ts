// Where harness finds k6: K6_BIN, then the tools folder that `npm run setup` fills in a clone, then PATH. Any stock
// k6 of the v2 line will do (the probes use its v2 TypeScript support); each candidate is asked `k6 version`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { TOKEN_MODULE } from '../../core/token-reader.ts';
import { InputError } from '../errors.ts';
import { packageRoot } from '../version.ts';

export const K6_MODULE = 'go.k6.io/k6/v2';
export const K6_VERSION = 'v2.2.0';
export const TOOLS_DIR = 'tools';
/** The output `npm run setup` builds into k6 (load/checkpoint): what k6 measured survives k6 being killed. */
export const CHECKPOINT_OUTPUT = 'harness-checkpoint';
// The token reader's module beside it, named once in core/ for the k6 script too; scripts/build-k6.ts builds it.
export { TOKEN_MODULE };

export const HOW_TO_BUILD =
  `build the pinned one with Go 1.25+: \`GOBIN=$PWD go install ${K6_MODULE}@${K6_VERSION}\` ` +
  '(or `npm run build:k6` in a clone of harness), then set K6_BIN to it or put it on PATH';

export const k6VersionLine = (bin: string): string =>
  execFileSync(bin, ['version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

/** What `k6 version` says: its first line, then the extensions built in; undefined when the binary does not run. */
const askVersion = (bin: string): string | undefined => {
  try {
    return k6VersionLine(bin);
  } catch {
    return undefined;
  }
};

// Each binary is asked once: finding k6 asks, and so does the load run that names it in every runner's summary.
const answers = new Map<string, string | undefined>();
const answerOf = (bin: string): string | undefined => {
  if (!answers.has(bin)) answers.set(bin, askVersion(bin));
  return answers.get(bin);
};

/** `k6 v2.2.0 (go1.26.8, linux/amd64)` gives `v2.2.0`; undefined when the binary does not answer like k6. */
const versionOf = (bin: string): string | undefined =>
  /^k6 (v\d+\.\d+\.\d+\S*)/.exec(answerOf(bin) ?? '')?.[1];

/** Whether `k6 version` lists `extension` (`name [kind]`) among those built in. */
const lists = (bin: string, extension: string): boolean =>
  answerOf(bin)
    ?.split('\n')
    .some((line) => line.includes(extension)) === true;

/** Whether `bin` has harness's checkpoint output built in: a stock k6 (K6_BIN, PATH) has not. */
export const hasCheckpoint = (bin: string): boolean => lists(bin, `${CHECKPOINT_OUTPUT} [output]`);

/** Whether `bin` reads token answers through harness's capped reader: a stock k6 decodes them whole. */
export const hasTokenModule = (bin: string): boolean => lists(bin, `${TOKEN_MODULE} [js]`);

/** The version a runner's summary records; 'unknown' when k6 does not say. */
export const k6Version = (bin: string): string => versionOf(bin) ?? 'unknown';

const fits = (version: string | undefined): boolean => version?.startsWith('v2.') === true;

const described = (bin: string): string => {
  const version = versionOf(bin);
  return `${bin} (${version === undefined ? 'does not answer `k6 version`' : `k6 ${version}`})`;
};

export const findK6 = (env: NodeJS.ProcessEnv = process.env): string => {
  if (env.K6_BIN) {
    if (!existsSync(env.K6_BIN)) throw new InputError(`K6_BIN points at ${env.K6_BIN}, which does not exist`);
    if (!fits(versionOf(env.K6_BIN)))
      throw new InputError(`K6_BIN: ${described(env.K6_BIN)} is not k6 v2.x; ${HOW_TO_BUILD}`);
    return env.K6_BIN;
  }
  const present = [
    join(packageRoot(), TOOLS_DIR, 'k6'),
    ...(env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'k6')),
  ].filter((bin) => existsSync(bin));
  const fitting = present.find((bin) => fits(versionOf(bin)));
  if (fitting === undefined) {
    const unfit = present.length === 0 ? '' : ` (${present.map(described).join(', ')} not v2.x)`;
    throw new InputError(`no k6 v2.x in K6_BIN, ${TOOLS_DIR}/ or PATH${unfit}: ${HOW_TO_BUILD}`);
  }
  return fitting;
};
