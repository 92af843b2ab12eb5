// load/probe.ts as one ES module for places that take a single script file, such as a k6-operator ConfigMap (its
// keys cannot hold the `lib/` folder probe.ts imports from). k6 resolves `open('./spec.generated.json')` at run time
// beside the script, so that file stays out of the bundle and travels next to it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SCRIPT } from './run.ts';

/** Written beside load/probe.ts in the package by scripts/build.ts: an installed harness has no esbuild. */
export const PROBE_BUNDLE = 'probe.bundle.js';
const prebuilt = join(dirname(SCRIPT), PROBE_BUNDLE);

/** A clone bundles from source, with the esbuild tsx brings. */
const bundleFromSource = async (): Promise<string> => {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [SCRIPT],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    external: ['k6', 'k6/*'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
};

export const bundleProbe = async (): Promise<string> =>
  existsSync(prebuilt) ? readFileSync(prebuilt, 'utf8') : bundleFromSource();
