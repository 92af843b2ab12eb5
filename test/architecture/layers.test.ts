// The layers of src/, held by their imports (docs/architecture.md draws them). cli/ is the top: it parses flags,
// runs a command and decides its exit, so nothing below may import it, or a route through the code runs back up.
// Each rule below is one that holds today; a new arrow that breaks one is a decision to make in the open (change the
// rule and docs/architecture.md), not one to slip in. conformance/'s own rule is check-imports.test.ts's, and
// core/'s with load/'s is test/core/boundary.test.ts's.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Import, importsUnder } from './imports.ts';

const REPOSITORY = resolve(import.meta.dirname, '../..');
/** A src/ whose report/ imports cli/ and a runner internal: both rules must catch it. */
const BROKEN = resolve(import.meta.dirname, 'fixtures/layers');

/** The layer a path is in: `src/<folder>` for a folder of src/, `src` for its loose files, else the top folder. */
const layerOf = (path: string): string => {
  const parts = path.split('/');
  return parts[0] === 'src' && parts.length > 2 ? `src/${parts[1]}` : parts[0]!;
};

interface LayerRule {
  readonly rule: string;
  /** The layers whose files the rule holds to. */
  readonly applies: (layer: string) => boolean;
  /** Whether the rule lets a file of such a layer import `target` (a path from the repository's root). */
  readonly allows: (target: string) => boolean;
}

const BOTTOM = ['src', 'src/spec', 'src/events'];
/** What a run returns, the only part of runner/ a report reads: the run's records, grades, timeline and baseline. */
const RUN_RESULT = ['types.ts', 'grades.ts', 'limit-timeline.ts', 'baseline.ts'].map(
  (name) => `src/runner/${name}`,
);

const RULES: readonly LayerRule[] = [
  {
    rule: 'nothing below cli/ imports cli/',
    applies: (layer) => layer !== 'src/cli',
    allows: (target) => layerOf(target) !== 'src/cli',
  },
  {
    rule: "only cli/ imports terminal/ (the commands' output, not the engine's)",
    applies: (layer) => layer !== 'src/cli' && layer !== 'src/terminal',
    allows: (target) => layerOf(target) !== 'src/terminal',
  },
  {
    rule: "src/'s loose files, spec/ and events/ import no other folder of src/",
    applies: (layer) => BOTTOM.includes(layer),
    allows: (target) => BOTTOM.includes(layerOf(target)),
  },
  {
    rule: "client/ and reference/ import only core/ and src/'s bottom (they know nothing of a run)",
    applies: (layer) => layer === 'src/client' || layer === 'src/reference',
    allows: (target) => [...BOTTOM, 'core', 'src/client', 'src/reference'].includes(layerOf(target)),
  },
  {
    rule: 'runner/ imports none of the outputs: report/, terminal/, k6-driver/, certify/, trend/',
    applies: (layer) => layer === 'src/runner',
    allows: (target) =>
      !['src/report', 'src/terminal', 'src/k6-driver', 'src/certify', 'src/trend'].includes(layerOf(target)),
  },
  {
    rule: 'report/ reads runner/ only through what a run returns (types, grades, limit timeline, baseline)',
    applies: (layer) => layer === 'src/report',
    allows: (target) => layerOf(target) !== 'src/runner' || RUN_RESULT.includes(target),
  },
];

/** `rule: file: specifier` for each relative import under `folders` of `root` that a rule refuses. */
const brokenLayers = (root: string, folders: readonly string[]): string[] =>
  folders
    .flatMap((folder) => importsUnder(root, folder))
    .filter((found): found is Import & { target: string } => found.target !== undefined)
    .flatMap(({ file, specifier, target }) =>
      RULES.filter(({ applies, allows }) => applies(layerOf(file)) && !allows(target)).map(
        ({ rule }) => `${rule}: ${file}: ${specifier}`,
      ),
    );

describe('layers', () => {
  it('src/, core/ and conformance/ keep every layer rule', () => {
    expect(brokenLayers(REPOSITORY, ['src', 'core', 'conformance'])).toEqual([]);
  });

  it('catch a report/ module that imports cli/ and a runner internal', () => {
    expect(brokenLayers(BROKEN, ['src'])).toEqual([
      `${RULES[0]!.rule}: src/report/reaches-up.ts: ../cli/program.ts`,
      `${RULES[5]!.rule}: src/report/reaches-up.ts: ../runner/session.ts`,
    ]);
  });

  it('place a file by its folder of src/, or src/ for a loose one', () => {
    expect(['src/cli/main.ts', 'src/errors.ts', 'core/plan.ts'].map(layerOf)).toEqual([
      'src/cli',
      'src',
      'core',
    ]);
  });
});
