import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { Evidence, EvidenceRequest, EvidenceResponse } from '../../src/client/index.ts';
import { conformanceSchema } from '../../src/report/schema.ts';
import type { Grade } from '../../src/runner/grades.ts';
import type { LimitTimeline, TimelineRequest } from '../../src/runner/limit-timeline.ts';
import type { CheckResult, PlanItem, RunReport } from '../../src/runner/types.ts';
import { FIXTURE } from './fixture.ts';

// Compile-time drift guard: for each object in the schema, its property names are exactly the type's keys and its
// `required` list exactly the type's non-optional keys. Adding a field to RunReport without the schema fails tsc.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Props<S> = S extends { properties: infer P } ? keyof P : never;
type Required<S> = S extends { required: readonly (infer R)[] } ? R : never;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Matches<S, T> = Equal<Props<S>, keyof T> extends true ? Equal<Required<S>, RequiredKeys<T>> : false;

type Top = typeof conformanceSchema.properties;
type EvidenceSchema = typeof conformanceSchema.definitions.evidence;
const schemaMatchesTypes: [
  Matches<typeof conformanceSchema, RunReport>,
  Matches<Top['harness'], RunReport['harness']>,
  Matches<Top['target'], RunReport['target']>,
  Matches<Top['counts'], Record<Grade, number>>,
  Matches<Top['plan']['items'], PlanItem>,
  Matches<Top['checks']['items'], CheckResult>,
  Matches<EvidenceSchema, Evidence>,
  Matches<EvidenceSchema['properties']['request'], EvidenceRequest>,
  Matches<EvidenceSchema['properties']['response'], EvidenceResponse>,
  Matches<EvidenceSchema['properties']['error'], NonNullable<Evidence['error']>>,
  Matches<EvidenceSchema['properties']['refresh'], NonNullable<Evidence['refresh']>>,
  Matches<Top['checks']['items']['properties']['timeline'], LimitTimeline>,
  Matches<
    Top['checks']['items']['properties']['timeline']['properties']['requests']['items'],
    TimelineRequest
  >,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true];

const validate = new Ajv({ strict: true, allErrors: true }).compile(conformanceSchema);
const serialized = (value: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(value));

/** Sets (or, given undefined, deletes) the value at a JSON Pointer whose segments need no escaping. */
const setAt = (document: unknown, pointer: string, value: unknown): void => {
  const keys = pointer.split('/').slice(1);
  const last = keys.pop()!;
  let node = document as Record<string, unknown>;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  if (value === undefined) delete node[last];
  else node[last] = value;
};

describe('conformance.json schema', () => {
  it('matches the TypeScript types', () => {
    expect(schemaMatchesTypes.every(Boolean)).toBe(true);
  });

  it('accepts the fixture report as JSON.stringify writes it', () => {
    expect(validate(serialized(FIXTURE)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('covers every grade, a refresh and a transport error in the fixture', () => {
    const grades = new Set(FIXTURE.checks.map((c) => c.grade));
    expect(grades.size).toBe(6);
    const evidence = FIXTURE.checks.flatMap((c) => c.evidence);
    expect(evidence.some((e) => e.refresh !== undefined)).toBe(true);
    expect(evidence.some((e) => e.error !== undefined)).toBe(true);
    expect(evidence.some((e) => e.response?.body !== undefined)).toBe(true);
  });

  it('accepts a convention check citing an RFC by number, and nothing else as its source', () => {
    const document = serialized(FIXTURE);
    setAt(document, '/checks/1/convention', { rfc: 'RFC 6749', section: '§5.1' });
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    setAt(document, '/checks/1/convention', { rfc: 'SPEC.md', section: '§5.1' });
    expect(validate(document)).toBe(false);
  });

  it.each([
    ['an unknown grade', '/checks/0/grade', 'MAYBE'],
    ['a missing count', '/counts/INFO', undefined],
    ['an unknown field', '/secret', 'x'],
    ['a non-ISO time', '/startedAt', 'yesterday'],
    ['a bad nested refresh', '/checks/2/evidence/0/refresh/rejected/request', undefined],
    ['a status out of range', '/checks/0/evidence/0/response/status', 42],
    ['a negative sent count', '/sent/POST {auth_url}', -1],
  ])('rejects %s', (_name, pointer, value) => {
    const document = serialized(FIXTURE);
    setAt(document, pointer, value);
    expect(validate(document)).toBe(false);
    // The error sits at the spoiled value or at the object that lost or gained a property.
    expect(validate.errors?.some((e) => pointer.startsWith(e.instancePath))).toBe(true);
  });
});
