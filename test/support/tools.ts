// The tools some tests need beyond Node, in one list: built by `npm run setup` (k6, Toxiproxy, actionlint) or
// Debian packages (Chromium, xmllint, script). A test that needs one skips without it, naming it; test/tools.test.ts
// lists every missing tool, what skips for it and how to get it, and fails when HARNESS_REQUIRE_TOOLS=1 (CI), so a
// tool that went missing is never a silent skip there.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { toolsActionlintPath } from '../../scripts/build-actionlint.ts';
import { CHROMIUM } from '../../scripts/screenshots.ts';
import { findToxiproxy } from '../../src/reference/toxiproxy.ts';
import { XMLLINT } from '../report/junit-schema.ts';

const ROOT = resolve(import.meta.dirname, '../..');

const runs = (command: string, args: readonly string[]): boolean => {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

interface Tool {
  readonly present: () => boolean;
  /** How to get it. */
  readonly get: string;
  /** What skips without it. */
  readonly skips: string;
}

export const TOOLS = {
  k6: {
    present: () => existsSync(process.env.K6_BIN ?? join(ROOT, 'tools/k6')),
    get: 'npm run setup (or npm run build:k6)',
    skips: 'the stock-k6 run of the packed tarball, the k6 decoding of its settings',
  },
  toxiproxy: {
    present: () => findToxiproxy() !== undefined,
    get: 'npm run setup (or npm run build:toxiproxy)',
    skips: 'every run behind a simulated network (serve --network, conformance and load at far)',
  },
  actionlint: {
    present: () => existsSync(process.env.ACTIONLINT_BIN ?? toolsActionlintPath()),
    get: 'npm run setup (or npm run build:actionlint)',
    skips: 'the lint of the GitHub Actions examples',
  },
  xmllint: {
    present: () => XMLLINT !== undefined,
    get: 'apt-get install libxml2-utils',
    skips: "the JUnit reports' validation against junit-10.xsd",
  },
  chromium: {
    present: () => existsSync(CHROMIUM),
    get: 'apt-get install chromium',
    skips: 'the HTML reports rendered in a browser',
  },
  script: {
    present: () => runs('script', ['-qc', 'true', '/dev/null']),
    get: 'apt-get install bsdutils (util-linux)',
    skips: 'harness at a terminal: colour and the live progress line',
  },
  podman: {
    present: () => runs('podman', ['--version']),
    get: 'apt-get install podman buildah debootstrap runc',
    skips: 'the container image: its build and the runs inside it (npm run image)',
  },
} as const satisfies Record<string, Tool>;

export type ToolName = keyof typeof TOOLS;

const seen = new Map<ToolName, boolean>();
/** Whether `name` is here (asked once per file). */
export const hasTool = (name: ToolName): boolean => {
  if (!seen.has(name)) seen.set(name, TOOLS[name].present());
  return seen.get(name)!;
};

/** A title that says, when the tool is missing, that it skips and how to get the tool. */
export const needing = (name: ToolName, title: string): string =>
  hasTool(name) ? title : `${title} (skipped: no ${name}; ${TOOLS[name].get})`;
