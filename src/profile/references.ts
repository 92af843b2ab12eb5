// Checks a schema-valid profile's cross references: every endpoint it names must be one SPEC.md §4 lists or one of
// the profile's own Observability endpoints, so a typo fails at load time instead of silently testing nothing.
import { InputError } from '../errors.ts';
import { BUCKETS, ENDPOINTS, type Profile } from '../spec/index.ts';

const SPEC_KEYS = new Set<string>(ENDPOINTS.map((e) => e.key));

const PATH_IDS = new Map<string, readonly string[]>(ENDPOINTS.map((e) => [e.key, e.pathIds]));

/** An id taken from an endpoint that needs that very id, directly or through other ids, can never be had. */
const checkIdLoops = (profile: Profile, fail: (pointer: string, message: string) => never): void => {
  const ids: Readonly<Record<string, { from?: string } | undefined>> = profile.ids ?? {};
  const needs = (name: string): readonly string[] => PATH_IDS.get(ids[name]?.from ?? '') ?? [];
  for (const name of Object.keys(ids)) {
    const seen = new Set<string>();
    const pending = [...needs(name)];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (id === name)
        fail(`/ids/${name}/from`, `${ids[name]!.from} needs ${name} itself: the ids form a loop`);
      if (!seen.has(id)) {
        seen.add(id);
        pending.push(...needs(id));
      }
    }
  }
};

export const checkReferences = (profile: Profile, source: string): void => {
  const fail = (pointer: string, message: string): never => {
    throw new InputError(`${source}: ${pointer}: ${message}`);
  };
  const observability = profile.observability ?? [];
  observability.forEach((key, i) => {
    if (SPEC_KEYS.has(key))
      fail(`/observability/${i}`, `${key} is a SPEC.md §4 endpoint, not an Observability one`);
  });
  const known = new Set<string>([...SPEC_KEYS, ...observability]);
  const expectKnown = (key: string, pointer: string): void => {
    if (!known.has(key)) {
      fail(
        pointer,
        `unknown endpoint '${key}' (use a SPEC.md §4 key such as 'POST /api/rules/execute', or list it under observability)`,
      );
    }
  };

  for (const key of Object.keys(profile.requests ?? {})) expectKnown(key, `/requests/${key}`);
  for (const [name, idSource] of Object.entries(profile.ids ?? {})) {
    if (idSource?.from !== undefined) expectKnown(idSource.from, `/ids/${name}/from`);
  }
  checkIdLoops(profile, fail);
  for (const [role, client] of Object.entries(profile.clients)) {
    for (const [i, key] of (client?.lacks ?? []).entries()) expectKnown(key, `/clients/${role}/lacks/${i}`);
  }
  if (Array.isArray(profile.side_effects)) {
    for (const [i, key] of profile.side_effects.entries()) expectKnown(key, `/side_effects/${i}`);
  }
  for (const key of Object.keys(profile.limits ?? {})) {
    if (!SPEC_KEYS.has(key) && !(key in BUCKETS)) {
      fail(
        `/limits/${key}`,
        `not a SPEC.md §8 endpoint key or bucket id (${Object.keys(BUCKETS).join(', ')})`,
      );
    }
  }
  const otherTenant = profile.clients.other_tenant?.tenant;
  if (otherTenant !== undefined && otherTenant === profile.tenant) {
    fail('/clients/other_tenant/tenant', `must differ from the profile's tenant '${profile.tenant}'`);
  }
};
