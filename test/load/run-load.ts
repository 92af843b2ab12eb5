// Runs `harness load` as a user would, against a reference server started here (on loopback, or behind Toxiproxy),
// and reads back what it wrote.
import { readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { LoadSummary } from '../../load/lib/evidence.ts';
import type { Profile } from '../../src/spec/index.ts';
import { harness, tmp } from '../cli/run.ts';

/** A profile file (in `dir`) whose secrets come from the environment, as a user would keep them. */
export const profileFile = (profile: Profile, dir = tmp()) => {
  const copy = structuredClone(profile);
  const env: Record<string, string> = {};
  for (const [role, client] of Object.entries(copy.clients)) {
    const name = `SECRET_${role.toUpperCase()}`;
    env[name] = client.client_secret;
    client.client_secret = `\${${name}}`;
  }
  const file = join(dir, 'profile.yaml');
  writeFileSync(file, stringify(copy));
  return { file, env };
};

export const runLoad = async (profile: Profile, args: string[]) => {
  const { file, env } = profileFile(profile);
  const dir = tmp();
  const result = await harness(['load', '--profile', file, '--report-dir', dir, ...args], env);
  const latest = realpathSync(join(dir, 'latest'));
  // Reports, then each runner's summary (runners/runner-<i>.json).
  const names = readdirSync(latest, { recursive: true, encoding: 'utf8' }).filter((f) =>
    statSync(join(latest, f)).isFile(),
  );
  const summaryFile = names.find((f) => /-summary\.json$/.test(f))!;
  const summary = JSON.parse(readFileSync(join(latest, summaryFile), 'utf8')) as LoadSummary;
  const artifacts = names.map((f) => readFileSync(join(latest, f), 'utf8'));
  /** Each phase's grade, from the lines `harness load` prints. */
  const graded = [
    ...`${result.stdout}\n${result.stderr}`.matchAll(/^(PASS|FAIL|WARN|INCONCLUSIVE)\s+(\S+)/gm),
  ];
  const grades = Object.fromEntries(graded.map((m) => [m[2]!, m[1]!]));
  return { ...result, latest, names, summary, artifacts, grades };
};
