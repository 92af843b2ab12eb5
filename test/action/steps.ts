// Runs action.yml's `run:` steps as GitHub's runner would, with bash and the env its `env:` maps give them, and
// their GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files. The `uses:` steps (setup-node, setup-go, upload-artifact)
// are not run here: action.test.ts checks what they are given. npm is a stand-in that records how it is called and,
// asked to install the packed tarball, puts a `harness` on PATH: the real one, or a recorder of its arguments.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { BIN, tmp } from '../cli/run.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
const ACTION_FILE = join(ROOT, 'action.yml');

export interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
}
export interface Action {
  inputs: Record<string, { description: string; required: boolean; default: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}
export const action = parse(readFileSync(ACTION_FILE, 'utf8')) as Action;

/** The one condition a `run:` step of action.yml has: the run step's outcome, not the steps before it. */
export const AFTER_THE_RUN = "${{ !cancelled() && steps.run.outcome == 'success' }}";

type Outputs = Record<string, Record<string, string>>;

/** `${{ a || b }}` where each operand is `inputs.NAME` or `steps.ID.outputs.NAME`: all action.yml's env uses. */
const evaluate = (text: string, inputs: Record<string, string>, steps: Outputs): string =>
  text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => {
    for (const operand of expression.split('||').map((o) => o.trim())) {
      const input = /^inputs\.([\w-]+)$/.exec(operand);
      const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(operand);
      if (input && !(input[1]! in inputs)) throw new Error(`no input ${input[1]} in action.yml`);
      if (!input && !output) throw new Error(`not an expression this runner evaluates: ${operand}`);
      const value = input ? inputs[input[1]!] : steps[output![1]!]?.[output![2]!];
      if (value) return value;
    }
    return '';
  });

const readOutputs = (file: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

const FAKE_NPM = `#!/bin/sh
echo "$PWD: npm $*" >> "$NPM_LOG"
case "$1" in
  pack) touch "$3/conformance-harness-0.1.0.tgz" ;;
  install) for last; do :; done; test -f "$last" && cp "$HARNESS_STAND_IN" "$(dirname "$0")/harness" ;;
esac
`;
/** harness itself, from this checkout. */
const REAL_HARNESS = `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`;
/** Writes its arguments one a line, and K6_BIN, instead of running. */
const RECORDER = '#!/bin/sh\nprintf \'%s\\n\' "$@" > "$ARGV_LOG"\necho "${K6_BIN:-}" > "$K6_BIN_LOG"\n';

interface StepRun {
  readonly step: ActionStep;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}
export interface ActionRun {
  readonly steps: StepRun[];
  /** The action's outputs, from its steps' as action.yml maps them. */
  readonly outputs: Record<string, string>;
  readonly jobSummary: string;
  readonly npmCalls: string[];
  readonly workspace: string;
  /** With `record`: the arguments harness got, and K6_BIN. */
  readonly argv: () => string[];
  readonly k6Bin: () => string;
}

/** Runs the action with `given` inputs (defaults from action.yml) in a fresh workspace, as a job would. */
export const runAction = (given: Record<string, string>, harness: 'real' | 'record' = 'real'): ActionRun => {
  const inputs = {
    ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default])),
    ...given,
  };
  const sandbox = tmp();
  const workspace = join(sandbox, 'workspace');
  const bin = join(sandbox, 'bin');
  for (const dir of [workspace, bin, join(sandbox, 'runner-temp')]) mkdirSync(dir);
  // A checkout is never empty: a glob in an argument would match something.
  writeFileSync(join(workspace, 'README.md'), '');
  const file = (name: string, text = '') => {
    writeFileSync(join(sandbox, name), text);
    return join(sandbox, name);
  };
  chmodSync(file('bin/npm', FAKE_NPM), 0o755);
  const standIn = file('harness-stand-in', harness === 'real' ? REAL_HARNESS : RECORDER);
  chmodSync(standIn, 0o755);
  const summary = file('step-summary.md');
  const base = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: sandbox,
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: join(sandbox, 'runner-temp'),
    GITHUB_STEP_SUMMARY: summary,
    NPM_LOG: file('npm.log'),
    HARNESS_STAND_IN: standIn,
    ARGV_LOG: file('argv.log'),
    K6_BIN_LOG: file('k6-bin.log'),
  };
  const outputs: Outputs = {};
  const steps: StepRun[] = [];
  let failed = false;
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.run === undefined) continue;
    if (step.if !== undefined && step.if !== AFTER_THE_RUN)
      throw new Error(`unexpected condition ${step.if}`);
    const runs = step.if === undefined ? !failed : steps.some((s) => s.step.id === 'run' && s.status === 0);
    if (!runs) continue;
    const output = file(`output-${index}`);
    const env = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([name, value]) => [name, evaluate(value, inputs, outputs)]),
    );
    // GitHub's `shell: bash`: bash --noprofile --norc -eo pipefail {0}
    const script = file(`step-${index}.sh`, step.run);
    const done = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: workspace,
      env: { ...base, ...env, GITHUB_OUTPUT: output },
      encoding: 'utf8',
      timeout: 150_000,
    });
    steps.push({ step, status: done.status, stdout: done.stdout, stderr: done.stderr });
    if (step.id) outputs[step.id] = readOutputs(output);
    failed ||= done.status !== 0;
  }
  const read = (path: string) => readFileSync(path, 'utf8');
  return {
    steps,
    outputs: Object.fromEntries(
      Object.entries(action.outputs).map(([name, o]) => [name, evaluate(o.value, inputs, outputs)]),
    ),
    jobSummary: read(summary),
    npmCalls: read(base.NPM_LOG).split('\n').filter(Boolean),
    workspace,
    argv: () => read(base.ARGV_LOG).split('\n').slice(0, -1),
    k6Bin: () => read(base.K6_BIN_LOG).trim(),
  };
};
