// schema/profile.schema.json is what an editor validates a profile with: it must say what harness's own validation
// says (it is profileSchema, written out), and the example profile must point at it and pass it.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadProfile } from '../../src/profile/read.ts';
import { PROFILE_SCHEMA_PATH, profileSchemaAsJson } from '../../src/spec/export.ts';
import { harness } from '../cli/run.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'examples/profile.yaml');
const committed = readFileSync(join(ROOT, PROFILE_SCHEMA_PATH), 'utf8');
const SCHEMA_COMMENT = /^# yaml-language-server: \$schema=(\S+)\n/;

/** An editor's validator: the file alone, with none of harness's ${VAR} resolution. */
const editorValidator = () => new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(committed));

describe('the profile schema file', () => {
  it('is profileSchema as npm run gen writes it', () => {
    expect(committed).toBe(profileSchemaAsJson());
  });

  it('names its draft and describes every field an editor offers', () => {
    const schema = JSON.parse(committed);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.title).toBe('harness profile');
    const undescribed = Object.entries(schema.properties as Record<string, { description?: string }>)
      .filter(([, field]) => !field.description)
      .map(([name]) => name);
    expect(undescribed).toEqual([]);
  });

  it('refuses a misspelled field and a malformed endpoint key, as harness does', () => {
    const validate = editorValidator();
    const good = { base_url: 'http://a.test', auth_url: 'http://a.test/t', tenant: 't', clients: {} };
    const primary = { client_id: 'i', client_secret: 's' };
    expect(validate({ ...good, clients: { primary } })).toBe(true);
    expect(validate({ ...good, clients: { primary }, limts: {} })).toBe(false);
    expect(validate({ ...good, clients: { primary }, observability: ['FETCH /x'] })).toBe(false);
    expect(validate(good)).toBe(false);
  });

  it('is what the example profile points at, and the example passes it and harness', () => {
    const text = readFileSync(EXAMPLE, 'utf8');
    const [, schemaPath] = SCHEMA_COMMENT.exec(text) ?? [];
    expect(schemaPath).toBeDefined();
    expect(resolve(dirname(EXAMPLE), schemaPath!)).toBe(join(ROOT, PROFILE_SCHEMA_PATH));
    const validate = editorValidator();
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
    const env = Object.fromEntries(
      [...text.matchAll(/\$\{(\w+)\}/g)].map(([, name]) => [name, `value-of-${name!.toLowerCase()}`]),
    );
    expect(loadProfile(EXAMPLE, env).clients.primary.client_id).toBe('value-of-client_id');
  });

  it('is what conformance --print-profile-schema prints, exiting 0', async () => {
    const result = await harness(['conformance', '--print-profile-schema']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(committed);
    expect(result.stderr).toBe('');
  });
});
