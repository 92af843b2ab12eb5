// Builds the package's dist/: harness compiled to JavaScript (no TypeScript loader at run time), plus what runs as
// it is: the k6 scripts and the core they share with Node (k6 runs TypeScript itself), with their spec data,
// SPEC.md, and the commit built from.
// `npm pack` runs it (prepack); a clone runs from source and needs no build.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { bundleProbe, PROBE_BUNDLE } from '../src/k6-driver/bundle.ts';
import { BUILD_INFO, harnessCommit } from '../src/version.ts';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
// The k6 scripts are read by k6, not Node: they ship as TypeScript, and so does the core they share with Node,
// beside the compiled copies Node imports.
for (const folder of ['load', 'core']) {
  cpSync(join(root, folder), join(dist, folder), {
    recursive: true,
    filter: (path) => !path.includes('/k8s') && !path.endsWith('tsconfig.json'),
  });
}
// `load --k8s` puts the probe in a ConfigMap as one module; the package has no esbuild to bundle it with.
writeFileSync(join(dist, 'load', PROBE_BUNDLE), await bundleProbe());
const spec = join(dist, 'src/spec/SPEC.md');
mkdirSync(dirname(spec), { recursive: true });
cpSync(join(root, 'src/spec/SPEC.md'), spec);
writeFileSync(join(root, BUILD_INFO), `${JSON.stringify({ commit: harnessCommit() }, null, 2)}\n`);
console.log(`harness: built ${dist} (commit ${harnessCommit()})`);
