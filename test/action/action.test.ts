// harness's GitHub Action (action.yml): its metadata against SchemaStore's schema of action metadata, what its
// `uses:` steps are given, and its `run:` steps run as a job would run them, against the embedded reference server.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { REPORT_FILES } from '../../src/report/write.ts';
import { tmp } from '../cli/run.ts';
import { type Action, AFTER_THE_RUN, action, ROOT, runAction } from './steps.ts';

/** SchemaStore's github-action.json (test/fixtures/github-action/SOURCE.md says which commit). */
const SCHEMA = resolve(import.meta.dirname, '../fixtures/github-action/github-action.json');
const schema = JSON.parse(readFileSync(SCHEMA, 'utf8')) as { $schema: string };
// Draft-07, which ajv's default class is; the schema nests `properties` under `if` without `type: object`, which only
// ajv's strict typing objects to.
const validate = new Ajv({ allErrors: true, strictTypes: false }).compile(schema);
const errors = (document: unknown) =>
  validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

const steps = action.runs.steps;
const uses = (name: string) => steps.filter((s) => s.uses?.split('@')[0] === name);
const byId = (id: string) => steps.find((s) => s.id === id)!;
const SLOW = { timeout: 180_000 };

describe("action.yml against SchemaStore's schema of action metadata", () => {
  it('is the draft-07 schema of action.yml', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  it('finds nothing wrong with action.yml', () => {
    expect(errors(action)).toEqual([]);
  });

  it('would catch a misspelt key and a wrong kind of action', () => {
    const broken = structuredClone(action) as Action & { runs: { using: string } };
    broken.runs.using = 'composit';
    (broken.inputs.profile as unknown as Record<string, unknown>).defualt = '';
    expect(errors(broken)).toEqual(
      expect.arrayContaining(['/inputs/profile must NOT have additional properties']),
    );
    expect(errors(broken).some((e) => e.startsWith('/runs'))).toBe(true);
  });
});

describe('action.yml', () => {
  it('is a composite action whose scripts get inputs only through env, never pasted into their text', () => {
    expect(action.runs.using).toBe('composite');
    for (const step of steps.filter((s) => s.run !== undefined)) {
      expect(step.shell, step.name).toBe('bash');
      expect(step.run, step.name).not.toContain('${{');
      for (const value of Object.values(step.env ?? {}))
        expect(value, step.name).toMatch(/^\$\{\{ (inputs\.[\w-]+|steps\.run\.outputs\.exit-code) \}\}$/);
    }
  });

  it('has the inputs and outputs docs/github-action.md lists', () => {
    const documented = readFileSync(join(ROOT, 'docs/github-action.md'), 'utf8');
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)])
      expect(documented, name).toContain(`\`${name}\``);
    expect(Object.keys(action.outputs).sort()).toEqual(['exit-code', 'report-path', 'summary']);
  });

  it('installs Node 22, and Go for the k6 build only when the command is load, by pinned majors', () => {
    expect(uses('actions/setup-node')).toEqual([
      { uses: 'actions/setup-node@v4', with: { 'node-version': 22 } },
    ]);
    const [go] = uses('actions/setup-go');
    expect(go).toMatchObject({ uses: 'actions/setup-go@v5', if: "inputs.command == 'load'" });
    // scripts/go-tool.ts builds k6 in a module that says `go 1.25`.
    expect(go?.with?.['go-version']).toBe('1.25');
  });

  it("uploads the run's own folder once, before the step that fails the job", () => {
    const [upload, ...more] = uses('actions/upload-artifact');
    expect(more).toEqual([]);
    expect(upload).toMatchObject({
      uses: 'actions/upload-artifact@v4',
      if: "${{ !cancelled() && steps.run.outputs.report-path != '' }}",
      with: { path: '${{ steps.run.outputs.report-path }}', 'if-no-files-found': 'error' },
    });
    const last = steps.at(-1)!;
    expect(last.if).toBe(AFTER_THE_RUN);
    expect(last.run).toMatch(/exit "\$EXIT_CODE"\s*$/);
    expect(steps.indexOf(upload!)).toBeLessThan(steps.indexOf(last));
    expect(steps.indexOf(byId('run'))).toBeLessThan(steps.indexOf(upload!));
  });
});

describe("action.yml's steps run as a job would run them", () => {
  const conformance = (inputs: Record<string, string>) => runAction(inputs);
  const statusOf = (run: ReturnType<typeof runAction>, name: string) =>
    run.steps.find((s) => s.step.name === name)?.status;

  it(
    'the embedded reference server: exit 0, the summary line, the report folder and the job summary',
    SLOW,
    () => {
      const run = conformance({ args: '--only  AUTH-TOKEN-TYPE,AUTH-TOKEN-EXPIRES-IN\n' });
      expect(run.steps.map((s) => [s.step.name, s.status])).toEqual([
        ['Check the inputs', 0],
        ['Install harness', 0],
        ['Run harness', 0],
        ["Fail the job with harness's exit code", 0],
      ]);
      expect(run.outputs['exit-code']).toBe('0');
      expect(run.outputs.summary).toMatch(/^summary: 2 checks in [\d.]+ s: 0 FAIL, .*, 2 PASS$/);
      const latest = realpathSync(join(run.workspace, 'reports/latest'));
      expect(run.outputs['report-path']).toBe(latest);
      expect(existsSync(join(latest, REPORT_FILES.junit))).toBe(true);
      expect(run.jobSummary).toMatch(/^## ✅ harness conformance: PASS$/m);
      // The package's route from the action's own checkout: its dependencies, the tarball, a global install of it.
      expect(run.npmCalls).toEqual([
        `${ROOT}: npm ci --no-audit --no-fund`,
        expect.stringMatching(/^.+: npm pack --pack-destination .+\/runner-temp\/harness-package$/),
        expect.stringMatching(
          /^.+: npm install --global --no-audit --no-fund .+\/conformance-harness-0\.1\.0\.tgz$/,
        ),
      ]);
    },
  );

  it('a FAIL: exit 1 once the report folder is there to upload, and the job fails with it', SLOW, () => {
    const run = conformance({ args: '--fault token-type-lowercase --only AUTH-TOKEN-TYPE' });
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.outputs.summary).toMatch(/: 1 FAIL, /);
    expect(run.outputs['report-path']).not.toBe('');
    expect(statusOf(run, 'Run harness')).toBe(0);
    expect(statusOf(run, "Fail the job with harness's exit code")).toBe(1);
  });

  it('a profile that is not there: exit 2, no report to upload, and the job summary says so', SLOW, () => {
    const run = conformance({ profile: 'harness/missing.yaml' });
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.outputs['report-path']).toBe('');
    expect(run.jobSummary).toContain('harness conformance wrote no report (exit 2)');
    const harness = run.steps.find((s) => s.step.id === 'run')!;
    expect(harness.stdout + harness.stderr).toContain('harness/missing.yaml');
    expect(statusOf(run, "Fail the job with harness's exit code")).toBe(2);
  });

  it.each([
    [{ command: 'serve' }, 'input command must be conformance or load'],
    [{ strict: 'yes' }, 'input strict must be true or false'],
    [{ scenario: 'transactions' }, 'input scenario is for command load only'],
    [{ command: 'load', baseline: 'expected.json' }, 'input baseline is for command conformance only'],
  ])('bad input %o: exit 2 before anything is installed', (inputs, message) => {
    const run = runAction(inputs, 'record');
    expect(run.steps.map((s) => [s.step.name, s.status])).toEqual([['Check the inputs', 2]]);
    expect(run.steps[0]!.stdout).toBe(`::error title=harness: bad input::${message}\n`);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.npmCalls).toEqual([]);
  });

  it('passes every input as one word, and args split at whitespace only: nothing expanded, globbed or run', () => {
    const run = runAction(
      {
        command: 'load',
        profile: 'staging profile.yaml',
        scenario: 'transactions,rules',
        strict: 'true',
        'report-dir': 'out/$HOME',
        args: ' --rate 10\n--duration $(touch pwned) *  "quoted words" ',
      },
      'record',
    );
    expect(run.argv()).toEqual([
      'load',
      '--report-dir',
      'out/$HOME',
      '--profile',
      'staging profile.yaml',
      '--scenario',
      'transactions,rules',
      '--strict',
      '--rate',
      '10',
      '--duration',
      '$(touch',
      'pwned)',
      '*',
      '"quoted',
      'words"',
    ]);
    expect(existsSync(join(run.workspace, 'pwned'))).toBe(false);
    // load runs the k6 the install step built into the action's checkout, with harness's output in it.
    expect(run.k6Bin()).toBe(join(ROOT, 'tools/k6'));
    expect(run.npmCalls.at(-1)).toBe(`${ROOT}: npm run build:k6`);
  });
});

describe("the step that fails the job with harness's exit code", () => {
  const script = action.runs.steps.at(-1)!.run!;
  it('passes every code through, with a line saying why for 3 (unreachable) and 5 (no verdict)', () => {
    for (const code of [0, 1, 2, 3, 4, 5]) {
      const run = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
        encoding: 'utf8',
        cwd: tmp(),
        env: { PATH: process.env.PATH, EXIT_CODE: String(code) },
      });
      expect(run.status).toBe(code);
      expect(run.stdout.startsWith('::error title=harness: target unreachable::'), run.stdout).toBe(
        code === 3,
      );
      expect(run.stdout.startsWith('::error title=harness: no verdict::'), run.stdout).toBe(code === 5);
    }
  });
});
