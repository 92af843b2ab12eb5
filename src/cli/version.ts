import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const harnessVersion = (): string =>
  (
    JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
