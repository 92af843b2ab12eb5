import { describe, expect, it } from 'vitest';
import { toJUnit } from '../../src/report/junit.ts';
import type { Grade } from '../../src/runner/grades.ts';
import type { CheckResult } from '../../src/runner/types.ts';
import { CONVENTIONS, citeConvention } from '../../src/spec/index.ts';
import { hasTool } from '../support/tools.ts';
import { FIXTURE, FIXTURE_CHECKS, reportOf } from './fixture.ts';
import { schemaErrors, XMLLINT_TITLE } from './junit-schema.ts';
import { all, parseXml, type XmlElement } from './xml.ts';

const HOSTILE = `<script>&"it's"</script> \u0000bell\u0007 esc\u001b lone\ud800 fffe\ufffe ok:é😀\nline2\ttab`;
const CLEAN = `<script>&"it's"</script> bell esc lone fffe ok:é😀\nline2\ttab`;
const hostile: CheckResult = {
  ...FIXTURE_CHECKS[4]!,
  title: HOSTILE,
  message: HOSTILE,
  repro: [`echo '${HOSTILE}'`],
};

const caseById = (root: XmlElement, id: string): XmlElement => {
  const found = all(root, 'testcase').find((c) => c.attrs.name?.startsWith(`${id}: `));
  if (found === undefined) throw new Error(`no testcase ${id}`);
  return found;
};
/** XML 1.0's Char production, inverted; spread strings yield lone surrogates as single characters. */
const forbidden = (char: string): boolean => {
  const code = char.codePointAt(0)!;
  if (code < 0x20) return !['\t', '\n', '\r'].includes(char);
  return (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff;
};
const childNames = (element: XmlElement): string[] => element.children.map((c) => c.name);

describe('toJUnit', () => {
  const xml = toJUnit(FIXTURE, { hostname: 'ci-runner-7' });
  const root = parseXml(xml);

  it('totals the run on <testsuites>', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(root.name).toBe('testsuites');
    expect(root.attrs).toEqual({
      name: 'harness conformance',
      tests: '10',
      failures: '2',
      errors: '1',
      time: '111.512',
    });
  });

  it('stamps each testsuite with when (UTC, as Ant writes it) and where it ran, and the run facts as properties', () => {
    for (const suite of all(root, 'testsuite')) {
      expect(suite.attrs).toMatchObject({ timestamp: '2026-11-21T23:45:12', hostname: 'ci-runner-7' });
      expect(suite.children[0]?.name).toBe('properties');
      expect(
        Object.fromEntries(suite.children[0]!.children.map((p) => [p.attrs.name, p.attrs.value])),
      ).toEqual({
        'harness.version': '0.1.0',
        'target.base_url': 'https://api.example.test',
        'target.tenant': 'acme',
        certifiable: 'false',
      });
    }
    for (const testcase of all(root, 'testcase')) expect(childNames(testcase)).not.toContain('properties');
  });

  it('times a testsuite by the wall time its checks ran, not their sum: checks in lanes overlap', () => {
    const at = (second: number, durationMs: number, id: string): CheckResult => ({
      ...FIXTURE_CHECKS[5]!,
      id,
      startedAt: new Date(Date.UTC(2026, 10, 24, 16, 0, second)).toISOString(),
      durationMs,
    });
    // Three checks of §8 side by side for 10 s, then one alone for 2 s after a 3 s gap: 12 s, where the sum is 32.
    const checks = [at(0, 10_000, 'A'), at(0, 10_000, 'B'), at(5, 5_000, 'C'), at(13, 2_000, 'D')];
    const [suite] = all(parseXml(toJUnit(reportOf(checks))), 'testsuite');
    expect(suite?.attrs).toMatchObject({ time: '12.000', timestamp: '2026-11-24T16:00:00' });
  });

  it('has one testsuite per SPEC.md section, in spec order, whose counts add up', () => {
    const suites = all(root, 'testsuite');
    expect(suites.map((s) => s.attrs.name)).toEqual([
      'SPEC.md §2 Resources and their fields',
      'SPEC.md §4 Endpoints',
      'SPEC.md §5 Authentication',
      'SPEC.md §7 Errors',
      'SPEC.md §8 Limits',
      'SPEC.md §9 Versioning',
    ]);
    for (const suite of suites) {
      const cases = suite.children.filter((c) => c.name === 'testcase');
      expect(Number(suite.attrs.tests)).toBe(cases.length);
      expect(Number(suite.attrs.failures)).toBe(
        cases.filter((c) => childNames(c).includes('failure')).length,
      );
      expect(Number(suite.attrs.errors)).toBe(cases.filter((c) => childNames(c).includes('error')).length);
      expect(Number(suite.attrs.skipped)).toBe(cases.filter((c) => childNames(c).includes('skipped')).length);
    }
    const sum = (attr: string) => suites.reduce((n, s) => n + Number(s.attrs[attr]), 0);
    expect(sum('tests')).toBe(10);
    expect(sum('failures') + sum('errors') + sum('skipped')).toBe(4);
  });

  it('names each testcase by section, id and title', () => {
    const testcase = caseById(root, 'AUTH-TOKEN-FORM');
    expect(testcase.attrs).toEqual({
      classname: '§5',
      name: 'AUTH-TOKEN-FORM: auth token form',
      time: '0.250',
    });
    expect(caseById(root, 'AUTH-TOKEN-PAYLOAD').attrs.classname).toBe('§4');
    expect(testcase.children).toEqual([]);
  });

  it('reports FAIL as a failure carrying message, clause and repro', () => {
    const [failure] = caseById(root, 'ERROR-BAD-SCOPE').children;
    expect(failure?.name).toBe('failure');
    expect(failure?.attrs).toEqual({ type: 'FAIL', message: 'a malformed scope got 500, not 400' });
    expect(failure?.text).toContain('a malformed scope got 500, not 400');
    expect(failure?.text).toContain('SPEC.md §7: 400 Bad Request');
    expect(failure?.text).toContain('client_secret=$CLIENT_SECRET');
  });

  it('reports INCONCLUSIVE as an error and a SKIP the user chose as skipped', () => {
    const [error] = caseById(root, 'ENDPOINT-POST-API-RULES-RERUN').children;
    expect(error?.name).toBe('error');
    expect(error?.attrs.type).toBe('INCONCLUSIVE');
    const [skipped] = caseById(root, 'AUTH-FORBIDDEN').children;
    expect(skipped?.name).toBe('skipped');
    expect(skipped?.attrs.message).toBe('the profile has no clients.restricted');
  });

  it('reports a SKIP the target forced as an error: the rule is unverified, exit 5, no pass', () => {
    const noToken: CheckResult = {
      ...FIXTURE_CHECKS[7]!,
      message: 'no token: the token endpoint answered 503',
    };
    const out = parseXml(toJUnit({ ...reportOf([noToken]), unverified: [noToken.id] }));
    expect(
      caseById(out, 'AUTH-FORBIDDEN').children.map((c) => [c.name, c.attrs.type, c.attrs.message]),
    ).toEqual([['error', 'SKIP', noToken.message]]);
    expect(out.attrs).toMatchObject({ tests: '1', failures: '0', errors: '1' });
  });

  it('accepts a FAIL only where --baseline expects that FAIL: a baseline expecting PASS leaves it a failure, as exit 1', () => {
    const withBaseline = (expected: Grade): string =>
      toJUnit({
        ...FIXTURE,
        gate: { strict: false, requireCertifiable: false, baseline: { 'ERROR-BAD-SCOPE': expected } },
      });
    const accepted = caseById(parseXml(withBaseline('FAIL')), 'ERROR-BAD-SCOPE');
    expect(childNames(accepted)).toEqual(['system-out']);
    expect(accepted.children[0]?.text).toMatch(/^FAIL accepted by --baseline: /);
    const regressedXml = withBaseline('PASS');
    const regressed = parseXml(regressedXml);
    expect(caseById(regressed, 'ERROR-BAD-SCOPE').children.map((c) => [c.name, c.attrs.type])).toEqual([
      ['failure', 'FAIL'],
    ]);
    expect(regressed.attrs.failures).toBe(root.attrs.failures);
    expect(regressedXml).not.toContain('accepted by --baseline');
  });

  it('fails a PASS where --baseline expects a FAIL, as exit 1 does: the baseline must be updated', () => {
    const xml = toJUnit({
      ...FIXTURE,
      gate: { strict: false, requireCertifiable: false, baseline: { 'AUTH-TOKEN-FORM': 'FAIL' } },
    });
    const fixed = caseById(parseXml(xml), 'AUTH-TOKEN-FORM');
    expect(fixed.children.map((c) => [c.name, c.attrs.type, c.attrs.message])).toEqual([
      ['failure', 'PASS', '--baseline expects FAIL, got PASS: the SPEC.md token request got 200'],
    ]);
    expect(Number(parseXml(xml).attrs.failures)).toBe(Number(root.attrs.failures) + 1);
  });

  it('passes WARN and INFO but says so in system-out; --strict makes a WARN a failure, as it makes exit 1', () => {
    const warn = caseById(root, 'AUTH-TOKEN-TYPE');
    expect(childNames(warn)).toEqual(['system-out']);
    expect(warn.children[0]?.text).toMatch(/^WARN: token_type is "bearer"/);
    const infoCase = caseById(root, 'VERSION-PATHS');
    expect(childNames(infoCase)).toEqual(['system-out']);
    expect(infoCase.children[0]?.text).toMatch(
      /^INFO: only \/event\/transaction\/v3 carries a version segment\n/,
    );
    const strict = parseXml(toJUnit(FIXTURE, { strict: true }));
    expect(caseById(strict, 'AUTH-TOKEN-TYPE').children.map((c) => [c.name, c.attrs.type])).toEqual([
      ['failure', 'WARN'],
    ]);
    expect(strict.attrs.failures).toBe('3');
  });

  it('cites the RFC, not SPEC.md, for a check that follows a convention', () => {
    const noStore: CheckResult = {
      ...FIXTURE_CHECKS[1]!,
      id: 'AUTH-TOKEN-NO-STORE',
      ...citeConvention(CONVENTIONS.tokenNoStore),
    };
    const [out] = caseById(parseXml(toJUnit(reportOf([noStore]))), 'AUTH-TOKEN-NO-STORE').children;
    expect(out?.text).toContain(`RFC 6749 §5.1: ${CONVENTIONS.tokenNoStore.text}`);
    expect(out?.text).not.toContain('SPEC.md');
  });

  it('escapes markup and quotes and strips characters XML 1.0 forbids', () => {
    const out = toJUnit(reportOf([hostile]));
    expect(out).not.toContain('<script>');
    expect([...out].filter(forbidden)).toEqual([]);
    const testcase = caseById(parseXml(out), 'ERROR-BAD-SCOPE');
    expect(testcase.attrs.name).toBe(`ERROR-BAD-SCOPE: ${CLEAN}`);
    expect(testcase.children[0]?.attrs.message).toBe(CLEAN);
    expect(testcase.children[0]?.text).toContain(`echo '${CLEAN}'`);
  });

  it('writes well-formed XML for an empty run', () => {
    const empty = parseXml(toJUnit(reportOf([])));
    expect(empty.attrs.tests).toBe('0');
    expect(empty.children).toEqual([]);
  });

  describe.skipIf(!hasTool('xmllint'))(XMLLINT_TITLE, () => {
    const noToken: CheckResult = { ...FIXTURE_CHECKS[7]!, id: 'AUTH-NO-TOKEN' };
    it.each([
      ['the fixture', FIXTURE],
      ['a hostile report', reportOf([hostile, ...FIXTURE_CHECKS])],
      ['a forced SKIP', { ...reportOf([noToken, ...FIXTURE_CHECKS]), unverified: [noToken.id] }],
      ['an empty run', reportOf([])],
    ])('%s', (_name, report) => {
      expect(schemaErrors(toJUnit(report))).toBe('');
      expect(schemaErrors(toJUnit(report, { strict: true }))).toBe('');
    });
  });
});
