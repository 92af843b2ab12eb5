// Hostile targets get a bounded, clear verdict: a token endpoint that hangs, resets, speaks garbage, drips, fails
// or floods harness with a body it must not read ends the run within its bounds, with the token checks graded on
// that evidence and everything needing a token SKIPped, and a valid report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allChecks } from '../../conformance/index.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { conformanceErrors } from '../../src/report/write.ts';
import { runConformance } from '../../src/runner/runner.ts';
import { selectChecks } from '../../src/runner/select.ts';
import type { CheckResult, RunReport } from '../../src/runner/types.ts';
import type { Profile } from '../../src/spec/index.ts';
import { type HostileMode, startHostile } from '../support/hostile.ts';
import { SCALED } from '../support/testbed.ts';

/** Short, so a hang costs little here; the run must end within a few of these, not one per check. */
const REQUEST_TIMEOUT_MS = 1500;

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer(SCALED);
});
afterAll(() => server.close());

const run = async (
  adjust: (profile: Profile) => Profile,
  options: { only?: string[]; deadlineMs?: number } = {},
): Promise<{ report: RunReport; ms: number }> => {
  const target = resolveTarget(adjust(server.profile()));
  const selection = selectChecks(allChecks(target), {
    slow: true,
    ...(options.only ? { only: options.only } : {}),
  });
  const started = performance.now();
  const report = await runConformance(target, selection, {
    provenance: { version: 'test', command: 'test' },
    http: { requestTimeoutMs: REQUEST_TIMEOUT_MS },
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
  });
  return { report, ms: performance.now() - started };
};

const againstHostileTokenEndpoint = async (mode: HostileMode) => {
  const hostile = await startHostile(mode);
  try {
    return await run((profile) => ({ ...profile, auth_url: hostile.authUrl }));
  } finally {
    await hostile.close();
  }
};

const isTokenCheck = (c: CheckResult) => c.tags.includes('token');
/** The skips that have nothing to do with the token: what the profile lacks. */
const profileSkip = /^the profile (has no|lists no|does not say)/;

const expectValidReport = (report: RunReport) => {
  const json = JSON.stringify(report);
  expect(conformanceErrors(JSON.parse(json))).toEqual([]);
  for (const secret of Object.values(server.clients).map((c) => c.client_secret)) {
    expect(json).not.toContain(secret);
  }
  return json;
};

/** Every check that needs a token SKIPs at once, naming AUTH-TOKEN-FORM, as for a token endpoint answering 500. */
const expectNoTokenSkips = (report: RunReport) => {
  for (const check of report.checks.filter((c) => !isTokenCheck(c))) {
    expect(check.grade, `${check.id}: ${check.message}`).toBe('SKIP');
    if (!profileSkip.test(check.message)) expect(check.message).toMatch(/^no token: see AUTH-TOKEN-FORM \(/);
  }
};

describe('a token endpoint that fails to answer', () => {
  it.each(['hang', 'drip', 'reset', 'garbage'] as const)(
    '%s: the checks of the SPEC.md token request FAIL with the transport error, the rest SKIP, within two request timeouts',
    async (mode) => {
      const { report, ms } = await againstHostileTokenEndpoint(mode);
      const tokenChecks = report.checks.filter(isTokenCheck);
      expect(tokenChecks.length).toBeGreaterThan(5);
      const failed = tokenChecks.filter((c) => c.grade === 'FAIL').map((c) => c.id);
      expect(failed).toEqual(
        expect.arrayContaining([
          'AUTH-TOKEN-FORM',
          'AUTH-TOKEN-SCHEMA',
          'AUTH-TOKEN-TYPE',
          'AUTH-TOKEN-EXPIRES-IN',
        ]),
      );
      for (const check of tokenChecks) {
        // Its own request failed (FAIL, or INCONCLUSIVE in a check that may only warn), or it was not sent after the
        // SPEC.md request failed (SKIP, pointing to the check graded on that).
        if (check.grade === 'SKIP') {
          expect(check.message, check.id).toMatch(
            /^no token endpoint answer: see AUTH-TOKEN-FORM \((timeout|reset|other): /,
          );
          continue;
        }
        expect([failed.includes(check.id) ? 'FAIL' : 'INCONCLUSIVE'], check.id).toContain(check.grade);
        expect(check.message).toMatch(/^the target failed to answer \((timeout|reset|other)\)/);
        expect(check.evidence[0]?.error).toBeDefined();
      }
      expectNoTokenSkips(report);
      // One timeout for the first token request, then everything is settled from it.
      expect(ms).toBeLessThan(2 * REQUEST_TIMEOUT_MS + 3000);
      expectValidReport(report);
    },
  );

  it('answering 500 has the same shape: AUTH-TOKEN-FORM FAILs and everything needing a token SKIPs', async () => {
    const { report } = await againstHostileTokenEndpoint('status-500');
    const form = report.checks.find((c) => c.id === 'AUTH-TOKEN-FORM')!;
    expect(form.grade).toBe('FAIL');
    expect(form.message).toBe('the token request got 500, not 200');
    expectNoTokenSkips(report);
    expectValidReport(report);
  });
});

describe('a token endpoint answering 200 with a body harness must not read', () => {
  it.each(['huge', 'endless'] as const)(
    '%s: the shape checks FAIL "over 65536 bytes", the evidence says where it was cut, the rest SKIP',
    async (mode) => {
      const { report, ms } = await againstHostileTokenEndpoint(mode);
      for (const id of ['AUTH-TOKEN-SCHEMA', 'AUTH-TOKEN-TYPE', 'AUTH-TOKEN-EXPIRES-IN']) {
        const check = report.checks.find((c) => c.id === id)!;
        expect(check.grade, id).toBe('FAIL');
        expect(check.message).toBe('the token response body is over 65536 bytes: harness read no further');
        expect(check.evidence[0]?.response?.body).toMatch(/\(body cut at 65536 bytes\)$/);
      }
      expectNoTokenSkips(report);
      expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + 3000);
      // Evidence keeps 4 KiB of each body, not the 64 KiB read, let alone the 200 MB sent.
      expect(expectValidReport(report).length).toBeLessThan(512 * 1024);
    },
  );
});

describe('a profile without Observability endpoints (a flags-only run)', () => {
  it('SKIPs the Observability limit checks, saying why, rather than recording a harness error', async () => {
    const { report } = await run(({ observability: _none, ...profile }) => profile, {
      only: ['observability'],
    });
    const observability = report.checks.filter((c) => c.tags.includes('observability'));
    expect(observability.map((c) => c.id)).toContain('LIMIT-OBSERVABILITY-SHARED');
    for (const check of observability) {
      expect(check.grade, check.id).toBe('SKIP');
      expect(check.message).toBe('no observability endpoints in the profile');
    }
  });
});

describe('the run deadline', () => {
  it('ends the checks still running as INCONCLUSIVE and returns a valid report right after it', async () => {
    const deadlineMs = 1500;
    const { report, ms } = await run((profile) => profile, { deadlineMs });
    expect(ms).toBeLessThan(deadlineMs + 1500);
    const cut = report.checks.filter((c) => c.message.startsWith('run deadline passed (1.5 s)'));
    expect(cut.length).toBeGreaterThan(10);
    for (const check of cut) expect(check.grade).toBe('INCONCLUSIVE');
    expect(report.checks.filter((c) => c.grade === 'FAIL')).toEqual([]);
    expectValidReport(report);
  });
});
