// --only, --skip, --list and --dry-run as a person uses them: what they left out appears nowhere, and what they named
// does; tables sized from their content.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { conformanceErrors } from '../../src/report/write.ts';
import { harness, SIDE_BY_SIDE, tmp } from './run.ts';

describe('harness conformance --only AUTH-TOKEN-TYPE', () => {
  let run: Awaited<ReturnType<typeof harness>>;
  let latest: string;
  const read = (file: string) => readFileSync(join(latest, file), 'utf8');
  beforeAll(async () => {
    const reportDir = tmp();
    run = await harness(['conformance', '--only', 'AUTH-TOKEN-TYPE', '--report-dir', reportDir]);
    latest = realpathSync(join(reportDir, 'latest'));
  }, 120_000);

  it('prints the check it was asked for, and no line for the ones left out', () => {
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^PASS\s+AUTH-TOKEN-TYPE\s+§2\s+token_type is Bearer$/m);
    expect(run.stdout).toMatch(/^summary: 1 check in /m);
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toContain('not selected');
      expect(output).not.toContain('AUTH-TOKEN-FORM');
    }
  });

  it('leaves the checks it did not run out of every report, which stay valid and cannot certify', () => {
    const report = JSON.parse(read('conformance.json'));
    expect(conformanceErrors(report)).toEqual([]);
    expect(report.checks.map((c: { id: string }) => c.id)).toEqual(['AUTH-TOKEN-TYPE']);
    expect(report.certifiable).toBe(false);
    expect(report.notCertifiable).toContainEqual(
      expect.stringMatching(/^\d+ checks SPEC.md requires were left out by --only\/--skip$/),
    );
    expect(read('conformance.xml')).toMatch(/<testsuites [^>]*tests="1"/);
    expect(read('conformance.xml')).not.toContain('<skipped');
    for (const file of ['conformance.xml', 'conformance.md', 'conformance.html'])
      expect(read(file)).not.toContain('AUTH-TOKEN-FORM');
  });
});

// No test below shares state with another or times anything but its own process: they run side by side, as many
// at once as run.ts allows.
describe.concurrent('names --only and --skip take', SIDE_BY_SIDE, () => {
  it('an unknown ID names the one meant, on one line, exit 2', async () => {
    const result = await harness(['conformance', '--only', 'AUTH-TOKEN-TYP']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(
      '--only: unknown check ID or tag: AUTH-TOKEN-TYP (did you mean AUTH-TOKEN-TYPE?)',
    );
  });

  it('an unknown tag names the tag meant; a name like none suggests nothing', async () => {
    const result = await harness(['conformance', '--skip', 'limts,qqqqqqqq']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('limts (did you mean limits?), qqqqqqqq;');
  });

  it('--list prints every check as a table whose columns fit the longest ID', async () => {
    const result = await harness(['conformance', '--list']);
    expect(result.status).toBe(0);
    const [header, ...rows] = result.stdout.trim().split('\n');
    expect(header).toMatch(/^ID\s+TAGS\s+CLAUSE\s+TITLE$/);
    // Every check the embedded server's run has, the observability endpoints' included.
    const run = await harness(['conformance', '--dry-run']);
    expect(rows.length).toBe(
      Number(
        /: (\d+) checks run, (\d+) do not/
          .exec(run.stdout)!
          .slice(1)
          .reduce((a, b) => Number(a) + Number(b), 0),
      ),
    );
    expect(rows).toContainEqual(
      expect.stringMatching(/^AUTH-TOKEN-TYPE\s+token\s+§2\s+token_type is `Bearer`$/),
    );
    const tagsAt = header!.indexOf('TAGS');
    for (const row of rows) expect(row.slice(tagsAt - 2, tagsAt)).toBe('  ');
  });

  it('--list --json gives the same checks to a script', async () => {
    const [table, json] = await Promise.all([
      harness(['conformance', '--list']),
      harness(['conformance', '--list', '--json']),
    ]);
    const checks = JSON.parse(json.stdout) as { id: string; tags: string[]; clause: string; title: string }[];
    expect(checks.map((c) => c.id)).toEqual(
      table.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((r) => r.split(' ')[0]),
    );
    expect(checks.find((c) => c.id === 'AUTH-TOKEN-TYPE')).toMatchObject({ tags: ['token'], clause: '§2' });
  });

  it('--json without --list is refused, naming the flag', async () => {
    const result = await harness(['conformance', '--json']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe('harness: --json applies to --list only');
  });
});

describe('harness conformance --dry-run', () => {
  it('sizes its columns from the longest ID, and lists no check --only left out', async () => {
    const result = await harness(['conformance', '--dry-run', '--only', 'endpoints']);
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    const afterPlan = lines.slice(1);
    const checks = afterPlan.slice(
      0,
      afterPlan.findIndex((l) => !l.startsWith('  ')),
    );
    const longest = Math.max(...checks.map((l) => l.trim().split(/\s+/)[0]!.length));
    expect(longest).toBeGreaterThan(48);
    for (const line of checks) expect(line.indexOf('§')).toBe(2 + longest + 2);
    expect(lines[0]).toMatch(/\(\d+ more left out by --only\/--skip\)$/);
    expect(result.stdout).not.toContain('AUTH-TOKEN-FORM');
  });

  it('shows a base URL taken from ${VAR} as [REDACTED], as every other output does', async () => {
    const dir = tmp();
    const file = join(dir, 'profile.yaml');
    const env = { BASE_URL: 'http://127.0.0.1:9/tenant-dry-run-7c41' };
    writeFileSync(
      file,
      stringify({
        base_url: '${BASE_URL}',
        auth_url: '${BASE_URL}/oauth2/token',
        tenant: 'acme',
        clients: { primary: { client_id: 'harness-primary', client_secret: 'dry-run-secret-5be2' } },
      }),
    );
    const result = await harness(['conformance', '--profile', file, '--dry-run'], env);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^plan against \[REDACTED\]/);
    expect(`${result.stdout}${result.stderr}`).not.toContain(env.BASE_URL);
  });
});
