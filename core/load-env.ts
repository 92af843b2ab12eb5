// The Node -> k6 contract. Everything harness hands a k6 process travels in its environment (never its command line,
// where `ps` shows it), under a HARNESS_* name written here and nowhere else: Node encodes typed settings
// (src/k6-driver/run.ts), k6 decodes them (load/lib/config.ts), so renaming a setting fails `tsc` on both sides.
// k6 decodes one setting at a time, so the secrets are read only where a VU needs them (never at init, where the
// k6-operator's initializer runs without them). A new setting is one field of LoadSettings and one row of VARIABLES.
import type { K6Plan } from './plan.ts';

/** The part of a harness profile the load scripts read (secrets travel separately). */
export interface LoadTarget {
  readonly base_url: string;
  readonly auth_url: string;
  readonly requests?: Readonly<
    Record<string, { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> }>
  >;
}

/** A token the pre-flight fetched, with the epoch ms to renew it at. */
export interface PrefetchedToken {
  readonly token: string;
  readonly renewAt: number;
}

export interface LoadSettings {
  /** The profile without any client_secret. */
  readonly target: LoadTarget;
  /** The plan resolved in Node (src/k6-driver/plan.ts). */
  readonly plan: K6Plan;
  /** Secret: client secrets by role. */
  readonly secrets: Readonly<Record<string, string>>;
  /** What summaries call the target: its URL with the profile's secrets hidden (else base_url). */
  readonly targetName?: string;
  /** Secret: the pre-flight's tokens by role (else each VU requests its own). */
  readonly tokens?: Readonly<Record<string, PrefetchedToken>>;
  /** Path ids the pre-flight found (else each instance fetches them in setup()). */
  readonly ids?: Readonly<Record<string, string>>;
  /** The pre-flight's round trip, which sizes the VUs. */
  readonly roundTripMs?: number;
  /** When the first phase starts (epoch ms), the same for every instance, so their slots line up. */
  readonly startAt?: number;
  /** How many k6 processes share the schedule. */
  readonly instances?: number;
  /** This process's number among them, from 0. */
  readonly instance?: number;
  /** `--timeout` (`timeout_ms`): the longest one request may take (else k6's 60 s). */
  readonly requestTimeoutMs?: number;
  /** Where handleSummary writes the LoadSummary JSON. */
  readonly summaryJson?: string;
  /** Where handleSummary writes the HTML summary. */
  readonly summaryHtml?: string;
  /**
   * What k6 prints when it ends: its text summary (`text`, the default), nothing (`none`: harness prints its own), or
   * the text summary and the summary JSON between markers (`markers`: a pod with no shared volume hands it back
   * through its log, core/summary-markers.ts).
   */
  readonly summaryStdout?: SummaryStdout;
  /** The run every runner belongs to, the same for all of them: the merge refuses runners of another run. */
  readonly runId?: string;
  /** harness's version and k6's, as a runner's summary records them (k6 cannot read its own). */
  readonly version?: string;
  readonly k6Version?: string;
  /** The machine this runner's clock belongs to: runners naming one share a clock (core/clocks.ts). */
  readonly clockHost?: string;
}

export const SUMMARY_STDOUT = ['text', 'none', 'markers'] as const;
export type SummaryStdout = (typeof SUMMARY_STDOUT)[number];

type Name = `HARNESS_${string}`;

interface Codec<T> {
  encode(value: T): string;
  /** The value of `raw`, or an Error naming the variable; never quoting a value that may hold a secret. */
  decode(raw: string, name: Name): T;
}

type Variables = {
  readonly [K in keyof LoadSettings]-?: {
    readonly name: Name;
    readonly required: undefined extends LoadSettings[K] ? false : true;
    readonly codec: Codec<NonNullable<LoadSettings[K]>>;
  };
};

const malformed = (name: Name, expected: string, shown?: string) =>
  new Error(
    `${name} must be ${expected}${shown === undefined ? '' : `, not ${JSON.stringify(shown.slice(0, 40))}`}`,
  );

const text: Codec<string> = { encode: (value) => value, decode: (raw) => raw };

const wholeNumber: Codec<number> = {
  encode: (value) => String(value),
  decode: (raw, name) => {
    if (!/^\d{1,16}$/.test(raw)) throw malformed(name, 'a whole number', raw);
    return Number(raw);
  },
};

const oneOf = <T extends string>(values: readonly T[]): Codec<T> => ({
  encode: (value) => value,
  decode: (raw, name) => {
    if (!values.includes(raw as T)) throw malformed(name, `one of ${values.join(', ')}`, raw);
    return raw as T;
  },
});

type Shape = (value: unknown) => boolean;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const withFields =
  (fields: Record<string, 'string' | 'number' | 'object'>): Shape =>
  (value) =>
    isObject(value) &&
    Object.entries(fields).every(([key, type]) =>
      type === 'object' ? isObject(value[key]) || Array.isArray(value[key]) : typeof value[key] === type,
    );
const recordOf =
  (entry: Shape): Shape =>
  (value) =>
    isObject(value) && Object.values(value).every(entry);
const isString: Shape = (value) => typeof value === 'string';

/** JSON of the given shape; a malformed value is never quoted, since some of these hold secrets. */
const json = <T>(expected: string, shape: Shape): Codec<T> => ({
  encode: (value) => JSON.stringify(value),
  decode: (raw, name) => {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw malformed(name, `${expected} as JSON`);
    }
    if (!shape(value)) throw malformed(name, expected);
    return value as T;
  },
});

const VARIABLES: Variables = {
  target: {
    name: 'HARNESS_TARGET',
    required: true,
    codec: json('the profile without secrets', withFields({ base_url: 'string', auth_url: 'string' })),
  },
  plan: {
    name: 'HARNESS_PLAN',
    required: true,
    codec: json('the plan harness resolved', withFields({ probes: 'object', preflight: 'object' })),
  },
  secrets: { name: 'HARNESS_SECRETS', required: true, codec: json('{"role": "secret"}', recordOf(isString)) },
  targetName: { name: 'HARNESS_TARGET_NAME', required: false, codec: text },
  tokens: {
    name: 'HARNESS_TOKENS',
    required: false,
    codec: json(
      '{"role": {"token", "renewAt"}}',
      recordOf(withFields({ token: 'string', renewAt: 'number' })),
    ),
  },
  ids: { name: 'HARNESS_IDS', required: false, codec: json('{"name": "id"}', recordOf(isString)) },
  roundTripMs: { name: 'HARNESS_ROUND_TRIP_MS', required: false, codec: wholeNumber },
  startAt: { name: 'HARNESS_START_AT', required: false, codec: wholeNumber },
  instances: { name: 'HARNESS_INSTANCES', required: false, codec: wholeNumber },
  instance: { name: 'HARNESS_INSTANCE', required: false, codec: wholeNumber },
  requestTimeoutMs: { name: 'HARNESS_REQUEST_TIMEOUT_MS', required: false, codec: wholeNumber },
  summaryJson: { name: 'HARNESS_SUMMARY_JSON', required: false, codec: text },
  summaryHtml: { name: 'HARNESS_SUMMARY_HTML', required: false, codec: text },
  summaryStdout: { name: 'HARNESS_SUMMARY_STDOUT', required: false, codec: oneOf(SUMMARY_STDOUT) },
  runId: { name: 'HARNESS_RUN_ID', required: false, codec: text },
  version: { name: 'HARNESS_VERSION', required: false, codec: text },
  k6Version: { name: 'HARNESS_K6_VERSION', required: false, codec: text },
  clockHost: { name: 'HARNESS_CLOCK_HOST', required: false, codec: text },
};

/** The environment variable that carries a setting (for messages and documentation). */
export const loadEnvName = (key: keyof LoadSettings): Name => VARIABLES[key].name;

/** One setting as its variable and value: the k6-operator manifests set them one by one, beside ConfigMap keys. */
export const loadEnvVar = <K extends keyof LoadSettings>(
  key: K,
  value: NonNullable<LoadSettings[K]>,
): [Name, string] => [VARIABLES[key].name, (VARIABLES[key].codec as Codec<typeof value>).encode(value)];

/** Node's side: the variables for one k6 process; a setting left undefined is left out. */
export const encodeLoadEnv = (settings: LoadSettings): Record<Name, string> =>
  Object.fromEntries(
    (Object.keys(VARIABLES) as (keyof LoadSettings)[]).flatMap((key) => {
      const value = settings[key];
      return value === undefined ? [] : [loadEnvVar(key, value)];
    }),
  );

/** k6's side: one setting from `__ENV` (empty counts as unset); a required one missing or any malformed throws. */
export const decodeLoadEnv = <K extends keyof LoadSettings>(
  env: Readonly<Record<string, string | undefined>>,
  key: K,
): LoadSettings[K] => {
  const { name, required, codec } = VARIABLES[key];
  const raw = env[name];
  if (raw === undefined || raw === '') {
    if (required) throw new Error(`${name} is not set: run this script through \`harness load\``);
    return undefined as LoadSettings[K];
  }
  return codec.decode(raw, name) as LoadSettings[K];
};
