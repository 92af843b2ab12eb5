// Writes the spec data for k6; with --check (run by `npm test`) fails when the committed copy is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SPEC_JSON_PATH, specAsJson } from '../src/spec/export.ts';

const path = resolve(import.meta.dirname, '..', SPEC_JSON_PATH);
const fresh = specAsJson();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {}
  if (current !== fresh) {
    console.error(`${SPEC_JSON_PATH} is out of date with src/spec: run \`npm run gen\` and commit it`);
    process.exit(1);
  }
  console.log(`${SPEC_JSON_PATH} is up to date`);
} else {
  writeFileSync(path, fresh);
  console.log(`wrote ${SPEC_JSON_PATH}`);
}
