// `npm run bench:load-all`: `harness load --scenario all` against the reference server (clock-aligned windows) at
// SPEC.md's real timings, 60 s minutes: about seven minutes. Writes reports/bench/load-all.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { measureWall } from './load-wall.ts';

const wall = await measureWall(60_000);
console.table([wall]);
const out = resolve(import.meta.dirname, '..', 'reports', 'bench');
mkdirSync(out, { recursive: true });
const path = join(out, 'load-all.json');
writeFileSync(path, `${JSON.stringify({ measuredAt: new Date().toISOString(), ...wall }, null, 2)}\n`);
console.log(`wrote ${path}`);
