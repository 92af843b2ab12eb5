// load/probe.ts as one ES module for places that take a single script file, such as a k6-operator ConfigMap (its
// keys cannot hold the `lib/` folder probe.ts imports from). k6 resolves `open('./spec.generated.json')` at run time
// beside the script, so that file stays out of the bundle and travels next to it.
import { SCRIPT } from './run.ts';

/** esbuild comes with tsx in a clone; an installed harness has no TypeScript toolchain to bundle with. */
const esbuild = async () => {
  try {
    return await import('esbuild');
  } catch {
    throw new Error(
      'bundling load/probe.ts needs esbuild, which comes with a clone of harness (npm install): run this there',
    );
  }
};

export const bundleProbe = async (): Promise<string> => {
  const { build } = await esbuild();
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
