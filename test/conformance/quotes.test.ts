// A certifier reads a check's quote as the contract, so every check of a full run must quote SPEC.md's own text, in
// the section (and rule) its clause cites; or, where SPEC.md is silent, say which RFC section it follows instead.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allChecks } from '../../conformance/index.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { resolveOptions } from '../../src/reference/options.ts';
import { buildProfile } from '../../src/reference/profile.ts';
import { CONVENTIONS, sectionOf } from '../../src/spec/index.ts';

const specText = readFileSync(resolve(import.meta.dirname, '../../src/spec/SPEC.md'), 'utf8');

/** Case, punctuation and whitespace do not count: a table's padding and `|---|` lines differ between copies. */
const words = (text: string): string =>
  ` ${text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ')} `;

/** The text a clause cites: '§8 rule 2' is rule 2 of §8, '§8 table' its table rows, anything else its section. */
const citedText = (clause: string): string | undefined => {
  const section = sectionOf(clause);
  const heading = new RegExp(`^## ${section.slice(1)}\\. .*$`, 'm').exec(specText);
  if (heading === null) return undefined;
  const start = heading.index + heading[0].length;
  const end = specText.indexOf('\n## ', start);
  const lines = specText.slice(start, end === -1 ? undefined : end).split('\n');
  const rule = /\brule (\d+)$/.exec(clause)?.[1];
  if (rule !== undefined) return lines.find((line) => line.startsWith(`${rule}. `));
  if (clause.endsWith(' table')) return lines.filter((line) => line.startsWith('|')).join('\n');
  return lines.join('\n');
};

// The reference server's own profile: all four clients, four Observability endpoints, so every check is generated.
const target = resolveTarget(
  buildProfile(resolveOptions(), 'http://127.0.0.1:9', 'http://127.0.0.1:9/oauth2/token'),
);
const checks = allChecks(target);

describe('the checks of a full run', () => {
  it('are all generated for the representative target', () => {
    expect(checks.length).toBeGreaterThanOrEqual(70);
    expect(checks.filter((c) => c.id.startsWith('ENDPOINT-GET-API-OBSERVABILITY-'))).toHaveLength(4);
  });

  it('have unique IDs in the stable format (baselines and --only refer to them)', () => {
    const ids = checks.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/);
  });
});

describe('conformance/', () => {
  const dir = resolve(import.meta.dirname, '../../conformance');
  it.each(readdirSync(dir).filter((f) => f.endsWith('.ts')))('%s writes no quote of its own', (file) => {
    // A correct quote written in a check would pass the test above, and go stale with the next SPEC.md.
    const written = /\bquote:\s*[`'"].*/.exec(readFileSync(resolve(dir, file), 'utf8'));
    expect(written?.[0], 'take it from src/spec (cite, citeConvention)').toBeUndefined();
  });
});

describe.each(checks.map((check) => [check.id, check] as const))('%s', (_id, check) => {
  if (check.convention === undefined) {
    it(`cites a clause SPEC.md has (${check.clause})`, () => {
      expect(citedText(check.clause), check.clause).toBeTruthy();
    });

    it('quotes SPEC.md text that clause contains', () => {
      expect(words(check.quote).trim(), 'an empty quote').not.toBe('');
      expect(
        words(citedText(check.clause) ?? ''),
        `SPEC.md ${check.clause} should contain:\n${check.quote}`,
      ).toContain(words(check.quote));
    });
  } else {
    const { rfc, section } = check.convention;
    it(`quotes ${rfc} ${section}, word for word as harness keeps it, and is not required`, () => {
      expect(rfc).toMatch(/^RFC \d+$/);
      expect(section).toMatch(/^§\d+(\.\d+)*$/);
      const kept = Object.values(CONVENTIONS).find((c) => c.rfc === rfc && c.section === section);
      expect(kept?.text, `no ${rfc} ${section} in CONVENTIONS`).toBeTruthy();
      expect(check.quote).toBe(kept?.text);
      // SPEC.md is the contract being certified: a rule it does not state cannot block certification.
      expect(check.required).toBe(false);
      expect(citedText(check.clause), check.clause).toBeTruthy();
    });
  }
});
