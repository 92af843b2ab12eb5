#!/usr/bin/env node
// harness is written in TypeScript and runs from source: tsx compiles each module on load, so the repository
// never holds a stale build.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
