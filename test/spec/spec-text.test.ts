// The typed data must say what SPEC.md says: these tests read the spec's own tables and compare.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUCKETS,
  bucketOf,
  ENDPOINTS,
  isValidScope,
  TOKEN_LIFETIME_SECONDS,
  TOKEN_REQUEST_FIELDS,
  TOKEN_TYPE,
} from '../../src/spec/index.ts';

const specText = readFileSync(resolve(import.meta.dirname, '../../src/spec/SPEC.md'), 'utf8');

const section = (heading: string): string => {
  const start = specText.indexOf(heading);
  expect(start, `SPEC.md has a section '${heading}'`).toBeGreaterThanOrEqual(0);
  const next = specText.indexOf('\n## ', start + heading.length);
  return specText.slice(start, next === -1 ? undefined : next);
};

const tableRows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );

describe('SPEC.md §4 endpoint table', () => {
  const rows = tableRows(section('## 4. Endpoints').split('### Token endpoint payload')[0]!).filter(
    ([, path]) => path?.startsWith('/'),
  );

  it('lists exactly the API endpoints harness knows, with their groups', () => {
    expect(rows.map(([method, path, group]) => [`${method} ${path}`, group])).toEqual(
      ENDPOINTS.map((e) => [e.key, e.group]),
    );
  });

  it('path ids are the braces of each path', () => {
    for (const e of ENDPOINTS) expect(e.pathIds).toEqual([...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  });
});

describe('SPEC.md §8 limits table', () => {
  const rows = tableRows(section('## 8. Limits'));
  const parse = (limit: string) => {
    const match = /^(\d+) requests? \/ (second|minute)$/.exec(limit);
    expect(match, limit).not.toBeNull();
    return { count: Number(match![1]), per: match![2] };
  };

  it('gives every API endpoint the limit of its bucket', () => {
    for (const e of ENDPOINTS) {
      const row = rows.find(([endpoint]) => endpoint === e.key);
      expect(row, e.key).toBeDefined();
      expect(bucketOf(e.bucket).limit).toEqual(parse(row![1]!));
    }
  });

  it('gives the Observability API one shared limit', () => {
    const row = rows.find(([endpoint]) => endpoint?.startsWith('All Observability API endpoints'));
    expect(row?.[0]).toMatch(/one limit shared by all of them/);
    expect(BUCKETS.observability.limit).toEqual(parse(row![1]!));
  });

  it('has no row harness does not know', () => {
    expect(rows).toHaveLength(ENDPOINTS.length + 1);
  });
});

describe('SPEC.md §2, §4 and §5 token rules', () => {
  it('lists the token request fields in order, all required', () => {
    const rows = tableRows(section('### Token endpoint payload').split('###')[1]!.split('Response:')[0]!);
    expect(rows.map(([field, required]) => [field, required])).toEqual(
      TOKEN_REQUEST_FIELDS.map((f) => [f.name, 'yes']),
    );
  });

  it('states the lifetime and token type harness expects', () => {
    expect(specText).toContain(`the value is ${TOKEN_LIFETIME_SECONDS} (1 hour)`);
    expect(specText).toContain(`Always \`${TOKEN_TYPE}\``);
  });

  it('accepts tenant scopes and rejects other shapes', () => {
    expect(isValidScope('tenant/acme')).toBe(true);
    expect(isValidScope('tenant/acme-01_x')).toBe(true);
    for (const bad of [
      'tenant/',
      'tenants/acme',
      'acme',
      'tenant/a/b',
      'tenant/a b',
      ' tenant/acme',
      'tenant/acme\n',
    ]) {
      expect(isValidScope(bad), bad).toBe(false);
    }
  });
});
