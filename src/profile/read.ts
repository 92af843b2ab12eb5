// A profile describes a target: the parts SPEC.md leaves open ("not shown") are the user's to fill in.
import { dirname, resolve } from 'node:path';
import type { ErrorObject } from 'ajv';
import { isScalar, parseDocument, visit } from 'yaml';
import { didYouMean } from '../did-you-mean.ts';
import { InputError, isHarnessError } from '../errors.ts';
import { readAtMost } from '../read-at-most.ts';
import { type Profile, profileSchema } from '../spec/index.ts';
import { endpointKey, httpUrl } from '../spec/schemas.ts';
import { validatorOf } from '../validator.ts';
import { requireSideEffectsOffLoopback } from './loopback.ts';
import { checkReferences } from './references.ts';
import {
  plainTextSecrets,
  plainTextWarning,
  pointerSegment,
  redactorFor,
  refuseUserinfo,
  type Variable,
  withSecretOrigins,
} from './secrets.ts';

// strictRequired is off because the `ids` entries use `oneOf: [{required: [...]}]` to say "from+pointer or value".
// verbose: an error carries the schema it broke, whose fields a mistyped one is matched against.
const profileValidator = validatorOf<Profile>(
  { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true },
  profileSchema,
);

/**
 * How often YAML aliases may be expanded (the yaml package's maxAliasCount, its default made explicit): past it an
 * alias bomb (a kilobyte that expands to billions of nodes) is refused before it is expanded (docs/bounds.md).
 */
export const MAX_ALIAS_COUNT = 100;

/** A profile is a few kilobytes; past this it is no profile, and parsing it would only take time (docs/bounds.md). */
export const MAX_PROFILE_BYTES = 256 * 1024;

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const PLACEHOLDER = /__harness_env_(\d+)__/g;
/** A string that is one reference alone: `client_secret: ${MY_SECRET}`, as against `Bearer ${TOKEN}`. */
const WHOLE_PLACEHOLDER = /^__harness_env_\d+__$/;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * `${VAR}` references become inert placeholders before parsing (so `{ client_id: ${CLIENT_ID} }` is valid YAML)
 * and are resolved inside parsed string values afterwards, so a secret containing YAML syntax (quotes, colons,
 * `#`) can never change the document's structure.
 */
const withPlaceholders = (text: string): { text: string; names: string[] } => {
  const names: string[] = [];
  return {
    text: text.replace(ENV_REF, (_match, name: string) => `__harness_env_${names.push(name) - 1}__`),
    names,
  };
};

/** What `${VAR}` references brought in: each variable with its value (all secret), and the strings holding them. */
interface FromEnvironment {
  readonly variables: Variable[];
  readonly pointers: Set<string>;
}

const resolveEnv = (
  value: Json,
  names: string[],
  env: NodeJS.ProcessEnv,
  source: string,
  found: FromEnvironment,
  pointer = '',
): Json => {
  if (typeof value === 'string') {
    // A reproduction names such a field's value by its variable ($MY_SECRET), as the user exports it.
    const whole = WHOLE_PLACEHOLDER.test(value);
    return value.replace(PLACEHOLDER, (_match, index: string) => {
      const name = names[Number(index)]!;
      const replacement = env[name];
      if (replacement === undefined) {
        throw new InputError(`${source}: ${pointer || '/'}: environment variable ${name} is not set`);
      }
      found.variables.push({ name, value: replacement, pointer, whole });
      found.pointers.add(pointer);
      return replacement;
    });
  }
  if (Array.isArray(value))
    return value.map((item, i) => resolveEnv(item, names, env, source, found, `${pointer}/${i}`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        resolveEnv(item, names, env, source, found, `${pointer}/${pointerSegment(key)}`),
      ]),
    );
  }
  return value;
};

/** What a pattern means, said in words: a raw regular expression tells a user little. */
const PATTERN_MEANINGS = new Map<string, string>([
  [httpUrl.pattern, 'must be an http(s) URL'],
  [endpointKey.pattern, 'must name an endpoint as "GET /path" or "POST /path"'],
]);

const describe = (error: ErrorObject): string => {
  const at = error.instancePath || '/';
  if (error.keyword === 'additionalProperties') {
    const field = (error.params as { additionalProperty: string }).additionalProperty;
    const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
    return `${at}: unknown field '${field}'${didYouMean(field, known)}`;
  }
  const meaning =
    error.keyword === 'pattern' && PATTERN_MEANINGS.get((error.params as { pattern: string }).pattern);
  if (meaning) return `${at}: ${meaning}`;
  return `${at}: ${error.message ?? 'is invalid'}`;
};

/** Validates an already-parsed document; `source` names it in errors (a file path or `--flags`). */
export const validateProfile = (document: unknown, source: string): Profile => {
  const validate = profileValidator();
  if (!validate(document)) {
    // oneOf failures repeat the branch errors; the first few distinct lines say what is wrong.
    const lines = [...new Set((validate.errors ?? []).map(describe))].slice(0, 3);
    throw new InputError(`${source}: ${lines.join('; ')}`);
  }
  checkReferences(document, source);
  requireSideEffectsOffLoopback(document, source);
  refuseUserinfo(document, source);
  return document;
};

/** A key repeated in one mapping, found in one pass (the yaml package's own check compares every pair of keys). */
const duplicateKey = (document: ReturnType<typeof parseDocument>): string | undefined => {
  let duplicate: string | undefined;
  visit(document, {
    Map: (_key, map) => {
      const seen = new Set<string>();
      for (const { key } of map.items) {
        const name = String(isScalar(key) ? key.value : key);
        if (seen.has(name)) {
          duplicate = name;
          return visit.BREAK;
        }
        seen.add(name);
      }
      return undefined;
    },
  });
  return duplicate;
};

export const parseProfile = (text: string, source: string, env: NodeJS.ProcessEnv = process.env): Profile => {
  const { text: inert, names } = withPlaceholders(text);
  // YAML 1.2 is a superset of JSON, so one parser serves both formats.
  const parsed = parseDocument(inert, { uniqueKeys: false });
  const error = parsed.errors[0]?.message.split('\n')[0];
  const duplicate = error === undefined ? duplicateKey(parsed) : undefined;
  if (error !== undefined || duplicate !== undefined) {
    throw new InputError(
      `${source}: not valid YAML or JSON: ${error ?? `the key '${duplicate}' appears twice in one mapping`}`,
    );
  }
  let document: Json;
  try {
    document = parsed.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Json;
  } catch (error) {
    // The yaml package's word for an alias bomb, or an alias before its anchor: the document's fault, not ours.
    if (!(error instanceof ReferenceError)) throw error;
    const why = error.message.startsWith('Excessive alias count')
      ? `aliases expanded more than ${MAX_ALIAS_COUNT} times (an alias bomb?)`
      : error.message;
    throw new InputError(`${source}: not valid YAML or JSON: ${why}`);
  }
  const found: FromEnvironment = { variables: [], pointers: new Set() };
  const resolved = resolveEnv(document, names, env, source, found);
  let profile: Profile;
  try {
    profile = validateProfile(resolved, source);
  } catch (error) {
    // A message may quote a field (the tenant, the host) whose value came from the environment.
    if (!isHarnessError(error, 'HARNESS_INPUT')) throw error;
    throw new InputError(redactorFor(found.variables.map((v) => v.value)).known(error.message));
  }
  const warning = plainTextWarning(source, plainTextSecrets(profile, found.pointers));
  return withSecretOrigins(profile, {
    fromEnvironment: found.variables,
    ...(warning === undefined ? {} : { plainTextWarning: warning }),
  });
};

/** The file's text, refused unread past MAX_PROFILE_BYTES. */
const readProfileText = (path: string): string => {
  let bytes: Buffer;
  try {
    bytes = readAtMost(path, MAX_PROFILE_BYTES);
  } catch (error) {
    throw new InputError(`--profile ${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  if (bytes.length > MAX_PROFILE_BYTES) {
    throw new InputError(
      `--profile ${path}: larger than ${MAX_PROFILE_BYTES} bytes, the most a profile may be`,
    );
  }
  return bytes.toString('utf8');
};

/** TLS files are named relative to the profile, so a profile and its certificates can move together. */
const anchorTlsFiles = (profile: Profile, dir: string): Profile => {
  if (profile.tls === undefined) return profile;
  const { ca, cert, key, ...rest } = profile.tls;
  return {
    ...profile,
    tls: {
      ...rest,
      ...(ca === undefined ? {} : { ca: resolve(dir, ca) }),
      ...(cert === undefined ? {} : { cert: resolve(dir, cert) }),
      ...(key === undefined ? {} : { key: resolve(dir, key) }),
    },
  };
};

export const loadProfile = (path: string, env: NodeJS.ProcessEnv = process.env): Profile =>
  anchorTlsFiles(parseProfile(readProfileText(path), path, env), dirname(resolve(path)));
