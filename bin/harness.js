#!/usr/bin/env node
// In a clone, harness runs from its TypeScript source (tsx compiles each module on load, so the repository never
// holds a stale build); the installed package ships no source and runs the JavaScript `npm pack` built into dist/.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import('../dist/src/cli/main.js');
}
