// The CI examples in examples/ci are meant to be copied as they are, so they are checked as far as can be offline:
// the GitHub workflow with actionlint, both files' harness commands against harness's own CLI, and the report
// paths they publish against the names harness writes.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ACTIONLINT_VERSION,
  actionlintVersion,
  toolsActionlintPath,
} from '../../scripts/build-actionlint.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { REPORT_FILES } from '../../src/report/write.ts';
import { BIN, profileFor, tmp } from '../cli/run.ts';

const EXAMPLES = resolve(import.meta.dirname, '../../examples/ci');
const GITHUB = join(EXAMPLES, 'github-actions.yml');
const GITLAB = join(EXAMPLES, 'gitlab-ci.yml');
const ACTIONLINT = process.env.ACTIONLINT_BIN ?? toolsActionlintPath();

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | boolean>;
}
interface GitHubJob {
  if: string;
  env: Record<string, string>;
  steps: Step[];
}
const github = parse(readFileSync(GITHUB, 'utf8')) as {
  on: Record<string, unknown>;
  jobs: Record<'conformance' | 'load', GitHubJob>;
};
type GitLabJob = {
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

describe.skipIf(!existsSync(ACTIONLINT))(
  `actionlint ${ACTIONLINT_VERSION}${existsSync(ACTIONLINT) ? '' : ` (skipped: no ${ACTIONLINT}; run npm run build:actionlint)`}`,
  () => {
    it('is the pinned version', () => {
      expect(actionlintVersion(ACTIONLINT)).toBe(ACTIONLINT_VERSION);
    });

    it('finds nothing wrong with examples/ci/github-actions.yml', () => {
      const run = spawnSync(ACTIONLINT, ['-no-color', GITHUB], { encoding: 'utf8' });
      expect(run.stdout + run.stderr).toBe('');
      expect(run.status).toBe(0);
    });

    it('would catch a wrong input to an action', () => {
      const broken = join(tmp(), 'broken.yml');
      writeFileSync(broken, readFileSync(GITHUB, 'utf8').replace('if-no-files-found:', 'if-no-file-found:'));
      const run = spawnSync(ACTIONLINT, ['-no-color', broken], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stdout).toContain('input "if-no-file-found" is not defined');
    });
  },
);

describe('examples/ci/github-actions.yml', () => {
  const { conformance, load } = github.jobs;
  const step = (job: GitHubJob, match: (s: Step) => boolean) => job.steps.find(match);

  it('gates pull requests with conformance and runs load on demand only', () => {
    expect(Object.keys(github.on).sort()).toEqual(['pull_request', 'workflow_dispatch']);
    expect(conformance.if).toBe("github.event_name == 'pull_request'");
    expect(load.if).toBe("github.event_name == 'workflow_dispatch'");
  });

  it('takes secrets from the secret store only', () => {
    for (const job of [conformance, load]) {
      expect(job.env.CLIENT_SECRET).toBe('${{ secrets.HARNESS_CLIENT_SECRET }}');
    }
  });

  it('shows conformance.md on the job page, publishes the JUnit reports and uploads every report', () => {
    const summary = step(conformance, (s) => s.run?.includes('GITHUB_STEP_SUMMARY') === true);
    expect(summary?.run).toContain(`reports/latest/${REPORT_FILES.markdown}`);
    expect(summary?.if).toBe('${{ !cancelled() }}');
    const junit = (job: GitHubJob) => step(job, (s) => s.uses?.startsWith('EnricoMi/') === true)?.with?.files;
    expect(junit(conformance)).toBe(`reports/*/${REPORT_FILES.junit}`);
    expect(junit(load)).toBe('reports/*/load-*.xml');
    for (const job of [conformance, load]) {
      const upload = step(job, (s) => s.uses === 'actions/upload-artifact@v4');
      expect(upload?.with?.path).toBe('reports/');
      expect(upload?.if).toBe('${{ !cancelled() }}');
    }
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
    expect(job('conformance').artifacts?.reports?.junit).toBe(`reports/*/${REPORT_FILES.junit}`);
    expect(job('conformance').after_script).toEqual([`cat reports/*/${REPORT_FILES.markdown}`]);
    expect(job('load').artifacts?.reports?.junit).toBe('reports/*/load-*.xml');
  });
});

describe('the harness commands in both examples', () => {
  let server: RunningReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer();
  });
  afterAll(() => server.close());

  const commands = [...harnessCommands(GITHUB), ...harnessCommands(GITLAB)];

  it('are the four the examples are about', () => {
    expect(commands.map((c) => c.split(' ')[0])).toEqual(['conformance', 'load', 'conformance', 'load']);
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

describe('exit 5, no verdict, in both examples', () => {
  const harnessStep = (job: GitHubJob) =>
    job.steps.find((s) => s.run?.includes('npx --no-install harness'))!.run!;
  const scripts = [
    ['GitHub conformance', harnessStep(github.jobs.conformance)],
    ['GitHub load', harnessStep(github.jobs.load)],
    ['GitLab conformance', gitlab.conformance!.script!.join('\n')],
    ['GitLab load', gitlab.load!.script!.join('\n')],
  ] as const;

  // Both CIs run a script as bash with -e (GitHub adds pipefail); npx stands in for harness exiting with `code`.
  it.each(scripts)(
    '%s: fails the job with a line saying why, and passes every other code through',
    (_, script) => {
      for (const code of [0, 1, 3, 4, 5]) {
        const run = spawnSync('bash', ['-eo', 'pipefail', '-c', `npx() { return ${code}; }\n${script}`], {
          encoding: 'utf8',
        });
        expect(run.status, run.stderr).toBe(code);
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
