// `harness conformance --list`: every check a full run has, to pick --only/--skip names from; --json for scripts.
import { allChecks } from '../../conformance/index.ts';
import { validateProfile } from '../profile/read.ts';
import { resolveTarget } from '../profile/target.ts';
import { DEFAULT_OBSERVABILITY } from '../reference/options.ts';
import { table, terminalWidth } from '../text-table.ts';

/**
 * The checks of the embedded server: SPEC.md's endpoints and its observability endpoints (a profile names its own,
 * whose checks are named alike). This stand-in profile is never sent anywhere; its secret is a placeholder.
 */
export const SPEC_TARGET = resolveTarget(
  validateProfile(
    {
      base_url: 'http://127.0.0.1',
      auth_url: 'http://127.0.0.1/oauth/token',
      tenant: 'tenant',
      observability: [...DEFAULT_OBSERVABILITY],
      clients: { primary: { client_id: 'list', client_secret: 'not-a-secret' } },
    },
    'the check list',
  ),
);

export const listChecks = (json: boolean): void => {
  const checks = allChecks(SPEC_TARGET).map((c) => ({
    id: c.id,
    tags: c.tags,
    clause: c.clause,
    title: c.title,
    required: c.required,
    slow: c.slow === true,
  }));
  if (json) {
    console.log(JSON.stringify(checks, null, 2));
    return;
  }
  const rows = checks.map((c) => [c.id, c.tags.join(','), c.clause, c.title]);
  for (const line of table([['ID', 'TAGS', 'CLAUSE', 'TITLE'], ...rows], terminalWidth(process.stdout))) {
    console.log(line);
  }
};
