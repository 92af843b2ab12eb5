// The CI examples in examples/ci are meant to be copied as they are, so they are checked as far as can be offline:
// the GitHub workflow with actionlint (harness's own action.yml in reach, as `uses: ./`), the GitLab file against
// GitLab's published CI schema, the GitLab file's harness commands against harness's own CLI, and the report paths
// both publish against the names harness writes. The action itself: test/action/action.test.ts.
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ACTIONLINT_VERSION,
  actionlintVersion,
  toolsActionlintPath,
} from '../../scripts/build-actionlint.ts';
import { K6_VERSION } from '../../src/k6-driver/k6.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { REPORT_FILES } from '../../src/report/write.ts';
import { BIN, profileFor, tmp } from '../cli/run.ts';
import { hasTool, needing } from '../support/tools.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLES = join(ROOT, 'examples/ci');
const GITHUB = join(EXAMPLES, 'github-actions.yml');
const GITLAB = join(EXAMPLES, 'gitlab-ci.yml');
const RELEASE = join(EXAMPLES, 'release.yml');
const ACTIONLINT = process.env.ACTIONLINT_BIN ?? toolsActionlintPath();
/** GitLab's CI schema (test/fixtures/gitlab-ci/SOURCE.md says where it comes from). */
const GITLAB_SCHEMA = resolve(import.meta.dirname, '../fixtures/gitlab-ci/ci.json');
/**
 * actionlint ${ACTIONLINT_VERSION} predates `concurrency.queue` (GitHub, May 2026) and reports it as an unknown key;
 * only that message is ignored, and the value is checked below instead.
 */
const QUEUE_UNKNOWN_TO_ACTIONLINT = 'unexpected key "queue" for "concurrency" section';
/** How the example names harness's action; a user puts the real owner in. */
const HARNESS_ACTION = 'OWNER/conformance-harness@v1';
/**
 * Lints `workflow` as a workflow of a repository that holds harness's action.yml at its root, calling it as
 * `uses: ./`: actionlint then checks every input and output the workflow names against action.yml (a remote
 * action it does not know, it checks not at all). It finds a project's root by its .git.
 */
const actionlint = (workflow: string) => {
  const project = tmp();
  mkdirSync(join(project, '.git'));
  mkdirSync(join(project, '.github/workflows'), { recursive: true });
  copyFileSync(join(ROOT, 'action.yml'), join(project, 'action.yml'));
  const file = join(project, '.github/workflows/harness.yml');
  writeFileSync(file, workflow.replaceAll(HARNESS_ACTION, './'));
  return spawnSync(ACTIONLINT, ['-no-color', '-ignore', QUEUE_UNKNOWN_TO_ACTIONLINT, file], {
    encoding: 'utf8',
    cwd: project,
  });
};
const example = readFileSync(GITHUB, 'utf8');
const release = readFileSync(RELEASE, 'utf8');

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | boolean>;
}
interface GitHubJob {
  if: string;
  env: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress': boolean; queue?: string };
  steps: Step[];
}
const github = parse(example) as {
  on: Record<string, unknown>;
  jobs: Record<'conformance' | 'load' | 'fork-pull-request', GitHubJob>;
};
type GitLabJob = {
  image?: string | { name: string };
  stage?: string;
  extends?: string;
  rules?: { if: string }[];
  script?: string[];
  before_script?: string[];
  after_script?: string[];
  artifacts?: { paths: string[]; reports?: { junit: string } };
};
const gitlab = parse(readFileSync(GITLAB, 'utf8')) as Record<string, GitLabJob> & { stages: string[] };

/** Every `npx --no-install harness ...` line of a file, shell continuation lines joined. */
const harnessCommands = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => /npx --no-install harness (.+)$/.exec(line)?.[1]?.trim())
    .filter((command): command is string => command !== undefined);

describe.skipIf(!hasTool('actionlint'))(needing('actionlint', `actionlint ${ACTIONLINT_VERSION}`), () => {
  it('is the pinned version', () => {
    expect(actionlintVersion(ACTIONLINT)).toBe(ACTIONLINT_VERSION);
  });

  it('finds nothing wrong with examples/ci/github-actions.yml calling harness as `uses: ./`', () => {
    const run = actionlint(example);
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it("would catch a misspelt input to harness's action, and an output it does not have", () => {
    const run = actionlint(
      example
        .replace('profile: harness/staging.yaml', 'profle: harness/staging.yaml')
        .replace('outputs.report-path', 'outputs.report-pth'),
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('input "profle" is not defined in action "harness" defined at "./"');
    expect(run.stdout).toContain('property "report-pth" is not defined');
  });

  it('would catch a wrong input to a third-party action', () => {
    const run = actionlint(example.replace('check_name:', 'check_nam:'));
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('input "check_nam" is not defined');
  });

  it('finds nothing wrong with examples/ci/release.yml, and would catch a broken step in it', () => {
    const run = actionlint(release);
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
    const broken = actionlint(release.replace('node-version: 22', 'node-versio: 22'));
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain('input "node-versio" is not defined');
  });

  it('ignores only the queue key: any other unknown key in concurrency is still caught', () => {
    const run = actionlint(example.replace('      queue: max\n', '      queue: max\n      qeue: max\n'));
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('unexpected key "qeue" for "concurrency" section');
  });
});

describe('examples/ci/github-actions.yml', () => {
  const { conformance, load } = github.jobs;
  const step = (job: GitHubJob, match: (s: Step) => boolean) => job.steps.find(match);

  it('gates pull requests with conformance and runs load on demand only', () => {
    expect(Object.keys(github.on).sort()).toEqual(['pull_request', 'workflow_dispatch']);
    expect(conformance.if).toMatch(/^github\.event_name == 'pull_request' && /);
    expect(load.if).toBe("github.event_name == 'workflow_dispatch'");
  });

  it('skips pull requests from forks, which get no secrets, and says so in a job of their own', () => {
    const sameRepository = 'github.event.pull_request.head.repo.full_name == github.repository';
    expect(conformance.if).toContain(sameRepository);
    const fork = github.jobs['fork-pull-request'];
    expect(fork.if).toContain(sameRepository.replace('==', '!='));
    const says = fork.steps.map((s) => s.run).join('\n');
    expect(says).toContain('no secrets');
    expect(says).toMatch(/^echo "::warning title=.+::\$message"$/m);
    expect(says).toContain('echo "$message" >> "$GITHUB_STEP_SUMMARY"');
  });

  it('queues runs against staging, one at a time, and never cancels one', () => {
    for (const job of [conformance, load]) {
      expect(job.concurrency).toEqual({
        group: 'harness-staging',
        'cancel-in-progress': false,
        queue: 'max',
      });
    }
  });

  it("runs harness through its action: conformance by default, load with the dispatch form's scenarios", () => {
    const harnessStep = (job: GitHubJob) => step(job, (s) => s.uses === HARNESS_ACTION);
    expect(harnessStep(conformance)?.with).toEqual({ profile: 'harness/staging.yaml' });
    expect(harnessStep(load)?.with).toEqual({
      command: 'load',
      profile: 'harness/staging.yaml',
      scenario: '${{ inputs.scenario }}',
    });
    // The action installs Node and harness, and builds k6: the example installs nothing itself.
    expect(example).not.toMatch(/setup-node|setup-k6|npm install|npx/);
  });

  it('takes secrets from the secret store only', () => {
    for (const job of [conformance, load]) {
      expect(job.env.CLIENT_SECRET).toBe('${{ secrets.HARNESS_CLIENT_SECRET }}');
    }
  });

  it("publishes the JUnit reports of the run's own folder, and leaves the job page and upload to the action", () => {
    const junit = (job: GitHubJob) => step(job, (s) => s.uses?.startsWith('EnricoMi/') === true);
    expect(junit(conformance)?.with?.files).toBe(
      `\${{ steps.harness.outputs.report-path }}/${REPORT_FILES.junit}`,
    );
    expect(junit(load)?.with?.files).toBe('${{ steps.harness.outputs.report-path }}/load-*.xml');
    for (const job of [conformance, load]) {
      // The harness step fails the job on any verdict but a pass: the JUnit report is published all the same.
      expect(junit(job)?.if).toBe("${{ !cancelled() && steps.harness.outputs.report-path != '' }}");
      expect(step(job, (s) => s.uses === HARNESS_ACTION)).toMatchObject({ id: 'harness' });
    }
    expect(example).not.toMatch(/upload-artifact|reports\/latest/);
  });
});

describe('examples/ci/release.yml', () => {
  const steps = (parse(release) as { jobs: { release: { steps: Step[] } } }).jobs.release.steps;
  const script = steps.map((s) => s.run ?? '').join('\n');

  it("releases on a version tag, refusing a tag that is not package.json's version", () => {
    expect((parse(release) as { on: { push: { tags: string[] } } }).on.push.tags).toEqual(['v*']);
    expect(script).toContain('if [ "$GITHUB_REF_NAME" != "v$version" ]; then');
  });

  it("attaches the npm package's tarball and the saved image, the two files the README tells a user to take", () => {
    expect(script).toContain('npm pack');
    expect(script).toMatch(
      /docker save "harness:\$GITHUB_REF_NAME" \| gzip > "harness-image-\$GITHUB_REF_NAME\.tar\.gz"/,
    );
    expect(script).toMatch(
      /gh release create .*\n.*conformance-harness-\*\.tgz "harness-image-\$GITHUB_REF_NAME\.tar\.gz"/,
    );
  });
});

describe('examples/ci/gitlab-ci.yml', () => {
  const jobs = Object.entries(gitlab).filter(([name]) => !['stages', 'variables'].includes(name)) as [
    string,
    GitLabJob,
  ][];
  const job = (name: string): GitLabJob => {
    const found = gitlab[name]!;
    return found.extends ? { ...gitlab[found.extends], ...found } : found;
  };

  it('puts every job in a declared stage and extends only what exists', () => {
    for (const [name, j] of jobs.filter(([n]) => !n.startsWith('.'))) {
      expect(gitlab.stages, name).toContain(j.stage);
      if (j.extends) expect(gitlab[j.extends], name).toBeDefined();
    }
  });

  it('gates merge requests with conformance and runs load from the pipeline form only', () => {
    expect(job('conformance').rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    for (const name of ['k6', 'load'])
      expect(job(name).rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "web"' }]);
  });

  it('keeps the reports, with the JUnit files where harness writes them', () => {
    expect(job('conformance').artifacts?.reports?.junit).toBe(`reports/latest/${REPORT_FILES.junit}`);
    expect(job('conformance').after_script?.[0]).toMatch(
      new RegExp(`^cat reports/latest/${REPORT_FILES.markdown} \\|\\| echo `),
    );
    expect(job('load').artifacts?.reports?.junit).toBe('reports/latest/load-*.xml');
  });

  it('uses Node 22 and the official k6 image of the release harness pins, not a build', () => {
    expect(job('conformance').image).toBe('node:22');
    expect(job('k6').image).toEqual({ name: `grafana/k6:${K6_VERSION.replace(/^v/, '')}`, entrypoint: [''] });
    expect(readFileSync(GITLAB, 'utf8')).not.toMatch(/go install|golang/);
  });

  // A protected variable never reaches a merge request pipeline on an unprotected branch: say so, not "bad profile".
  it('stops with one line naming CLIENT_SECRET and the protected-variable setting when it is missing', () => {
    const check = job('conformance').before_script![0]!;
    expect(check).not.toContain('npm install');
    const missing = spawnSync('bash', ['-eo', 'pipefail', '-c', check], {
      encoding: 'utf8',
      cwd: tmp(),
      env: { PATH: process.env.PATH },
    });
    expect(missing.status).toBe(2);
    expect(missing.stdout).toMatch(/^harness: CLIENT_SECRET is not set .*protected/);
    const present = spawnSync('bash', ['-eo', 'pipefail', '-c', check], {
      encoding: 'utf8',
      cwd: tmp(),
      env: { PATH: process.env.PATH, CLIENT_SECRET: 'set' },
    });
    expect(present.status).toBe(0);
    expect(present.stdout).toBe('');
  });

  describe("against GitLab's published CI schema", () => {
    const schema = JSON.parse(readFileSync(GITLAB_SCHEMA, 'utf8')) as { $schema: string };
    const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    const errors = (document: unknown) =>
      validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

    it('is the draft-07 schema ajv compiles', () => {
      expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    });

    it('finds nothing wrong with examples/ci/gitlab-ci.yml', () => {
      expect(errors(parse(readFileSync(GITLAB, 'utf8')))).toEqual([]);
    });

    it('would catch a broken job', () => {
      const broken = parse(readFileSync(GITLAB, 'utf8')) as Record<string, Record<string, unknown>>;
      broken.conformance!.rules = [{ iff: '$CI_PIPELINE_SOURCE == "merge_request_event"' }];
      broken.load!.artifacts = { when: 'sometimes', paths: ['reports/'] };
      expect(errors(broken)).toEqual(
        expect.arrayContaining([
          '/conformance/rules/0 must NOT have additional properties',
          '/load/artifacts/when must be equal to one of the allowed values',
        ]),
      );
    });
  });
});

describe('the harness commands of the GitLab example (the GitHub one runs the action: test/action/)', () => {
  let server: RunningReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer();
  });
  afterAll(() => server.close());

  const commands = harnessCommands(GITLAB);

  it('are the two the example is about', () => {
    expect(commands.map((c) => c.split(' ')[0])).toEqual(['conformance', 'load']);
  });

  /** `--dry-run` and `--list` parse every flag and read the profile, and send nothing. */
  it.each(commands)('harness %s: accepted as written', async (command) => {
    const { file, env } = profileFor(server);
    const checkOnly = command.startsWith('conformance') ? '--dry-run' : '--list';
    const run = await new Promise<{ code: number | null; out: string }>((done) => {
      execFile(
        'sh',
        ['-c', `"$NODE" "$BIN" ${command} ${checkOnly}`],
        {
          cwd: tmp(),
          env: {
            ...process.env,
            ...env,
            NODE: process.execPath,
            BIN,
            HARNESS_PROFILE: file,
            SCENARIO: 'transactions',
            HARNESS_SCENARIO: 'transactions',
          },
        },
        (error, stdout, stderr) => done({ code: error ? (error.code as number) : 0, out: stdout + stderr }),
      );
    });
    expect(run.out).not.toMatch(/^harness: /m);
    expect(run.code).toBe(0);
  });
});

describe('exit 3 (unreachable) and 5 (no verdict) in the GitLab example (the action: test/action/)', () => {
  const scripts = [
    ['GitLab conformance', gitlab.conformance!.script!.join('\n')],
    ['GitLab load', gitlab.load!.script!.join('\n')],
  ] as const;

  // GitLab runs a script as bash with -e; npx stands in for harness exiting with `code`.
  it.each(scripts)(
    '%s: fails the job with a line saying why, and passes every other code through',
    (_, script) => {
      for (const code of [0, 1, 2, 3, 4, 5]) {
        const run = spawnSync('bash', ['-eo', 'pipefail', '-c', `npx() { return ${code}; }\n${script}`], {
          encoding: 'utf8',
        });
        expect(run.status, run.stderr).toBe(code);
        expect(run.stdout.includes('staging unreachable'), run.stdout).toBe(code === 3);
        expect(run.stdout.includes('no verdict'), run.stdout).toBe(code === 5);
      }
    },
  );
});

describe('addresses in the examples', () => {
  it('name no host but reserved placeholders', () => {
    for (const file of [GITHUB, GITLAB]) {
      const hosts = [...readFileSync(file, 'utf8').matchAll(/\bhttps?:\/\/([^/\s"']+)/g)].map((m) => m[1]);
      expect(
        hosts.filter((h) => !h!.endsWith('.example.test')),
        file,
      ).toEqual([]);
    }
  });
});
