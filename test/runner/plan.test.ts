// What a run plans to send, as --dry-run shows it and the request budget reserves it: side_effects honoured, and per
// bucket how long the plan leaves the tenant limited.
import { describe, expect, it, vi } from 'vitest';
import { allChecks } from '../../conformance/index.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { planOf } from '../../src/runner/plan.ts';
import { planChecks } from '../../src/runner/plan-skips.ts';
import { selectChecks } from '../../src/runner/select.ts';
import type { Profile } from '../../src/spec/index.ts';
import { bucketAftermath, printPlan } from '../../src/terminal/summary.ts';

const PROFILE: Profile = {
  base_url: 'https://staging.example.test',
  auth_url: 'https://auth.example.test/oauth2/token',
  tenant: 'acme',
  clients: { primary: { client_id: 'a', client_secret: 's' } },
  observability: ['GET /api/observability/transaction-summary'],
  ids: {
    batch_id: { from: 'POST /api/transactions/batch/generate-upload-url', pointer: '/batch_id' },
    execution_id: { value: 'exec-1' },
  },
  side_effects: 'allow',
};

const planFor = (profile: Profile, only?: string[]) => {
  const target = resolveTarget(profile);
  const selection = selectChecks(allChecks(target), { slow: true, ...(only ? { only } : {}) });
  return { target, plan: planOf(selection, target) };
};
const endpointsOf = (profile: Profile) => new Set(planFor(profile).plan.map((item) => item.endpoint));

describe('the plan', () => {
  it('with side_effects: deny, plans nothing for the four acting endpoints nor for ids only they give', () => {
    const allowed = endpointsOf(PROFILE);
    expect(allowed).toContain('POST /event/transaction/v3');
    expect(allowed).toContain('GET /api/transactions/batch/status/{batch_id}');
    const denied = endpointsOf({ ...PROFILE, side_effects: 'deny' });
    for (const key of [
      'POST /event/transaction/v3',
      'POST /api/rules/rerun',
      'POST /api/transactions/batch/generate-upload-url',
      'POST /api/rules/execute',
      // Its batch_id comes from generate-upload-url.
      'GET /api/transactions/batch/status/{batch_id}',
      'GET /api/transactions/batch/validation-result/{batch_id}',
    ]) {
      expect(denied, key).not.toContain(key);
    }
    expect(denied).toContain('GET /api/rules/schedule');
    // A fixed execution_id needs no acting call.
    expect(denied).toContain('GET /api/rules/status/{execution_id}');
  });

  it('with side_effects listing generate-upload-url, plans it and the batch endpoints its ids serve', () => {
    const listed = endpointsOf({
      ...PROFILE,
      side_effects: ['POST /api/transactions/batch/generate-upload-url'],
    });
    expect(listed).toContain('POST /api/transactions/batch/generate-upload-url');
    expect(listed).toContain('GET /api/transactions/batch/validation-result/{batch_id}');
    expect(listed).not.toContain('POST /api/rules/execute');
  });

  it('--dry-run lists what side_effects keeps harness off as not run, saying why as the run does, and plans nothing for it', () => {
    const target = resolveTarget({ ...PROFILE, side_effects: 'deny' });
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      printPlan(planChecks(selectChecks(allChecks(target), { slow: true }), target), target, {
        deadlineMs: 600_000,
        hide: (text) => text,
      });
    } finally {
      log.mockRestore();
    }
    const text = lines.join('\n');
    expect(text).toMatch(
      /^ {2}LIMIT-ADMITS-TRANSACTION-EVENT +side_effects forbids calling POST \/event\/transaction\/v3$/m,
    );
    expect(text).toMatch(
      /^ {2}LIMIT-ADMITS-BATCH-STATUS +batch_id comes from POST \/api\/transactions\/batch\/generate-upload-url, which side_effects forbids calling$/m,
    );
    expect(text).toMatch(/^ {2}LIMIT-ADMITS-RULES-SCHEDULE +§8 table$/m);
    expect(text).not.toMatch(/^ {2}POST \/event\/transaction\/v3 +\d/m);
    expect(text).toMatch(/^the run ends by its deadline, 10 min after it starts \(--deadline\)$/m);
  });

  it('says how long each bucket it reaches stays limited after the run: a window; never for one it cannot reach', () => {
    const { target, plan } = planFor(PROFILE);
    const rows = new Map(bucketAftermath(plan, target).map((row) => [row.bucket, row]));
    expect(rows.get('transaction-event')).toMatchObject({ requests: 1512, limitedForMs: 1000 });
    expect(rows.get('rules-rerun')?.limitedForMs).toBe(60_000);
    expect(rows.get('observability')?.limitedForMs).toBe(60_000);
    const bearer = planFor(PROFILE, ['bearer']);
    const [schedule, ...others] = bucketAftermath(bearer.plan, bearer.target);
    expect(others).toEqual([]);
    // Three bad tokens, two reuse calls, three for the expiry check: far below 120 a minute.
    expect(schedule).toMatchObject({ bucket: 'rules-schedule', requests: 8, limitedForMs: 0 });
  });
});
