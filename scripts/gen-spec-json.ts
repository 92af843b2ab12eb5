// Writes the files generated from src/spec (k6's spec data, the profile schema); with --check (run by `npm test`)
// fails when a committed copy is stale.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { generatedFiles } from '../src/spec/export.ts';

const check = process.argv.includes('--check');
const stale: string[] = [];
for (const [name, fresh] of generatedFiles()) {
  const path = resolve(import.meta.dirname, '..', name);
  if (check) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {}
    if (current !== fresh) stale.push(name);
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, fresh);
    console.log(`wrote ${name}`);
  }
}
if (stale.length > 0) {
  console.error(`${stale.join(', ')} out of date with src/spec: run \`npm run gen\` and commit it`);
  process.exit(1);
}
if (check) console.log('generated files are up to date');
