// What in a profile is secret: client secrets, credential headers, and every value that came from a `${VAR}`
// reference (the user put it in the environment for a reason). All of them are registered with the run's redactor
// before anything is sent, so none reaches a report, a log line, an archive or a k6 summary.
import { Redactor } from '../client/redact.ts';
import { InputError } from '../errors.ts';
import { type TerminalText, tty } from '../printable.ts';
import type { Profile } from '../spec/index.ts';

/** A `${VAR}` reference the loader resolved. */
export interface Variable {
  /** `VAR`, as the profile writes it. */
  readonly name: string;
  /** What the environment gave it: a secret, like every value taken from there. */
  readonly value: string;
  /** The JSON pointer of the string it stands in, */
  readonly pointer: string;
  /** and whether it is that string whole (`client_secret: ${MY_SECRET}`), not a part (`Bearer ${TOKEN}`). */
  readonly whole: boolean;
}

/** Where the profile's secrets came from, as the loader found it. */
export interface SecretOrigins {
  /** Every `${VAR}` reference, with the value it brought in. */
  readonly fromEnvironment: readonly Variable[];
  /** The line warning of secrets written in the profile itself, if any. */
  readonly plainTextWarning?: string;
}

/**
 * Carried on the profile object under a symbol, so every `{ ...profile }` copy keeps it while JSON (reports, k6's
 * environment) and schema validation never see it.
 */
const ORIGINS = Symbol('where the profile secrets came from');

type WithOrigins = Profile & { [ORIGINS]?: SecretOrigins };

/** Header names whose values are credentials, wherever they come from. */
const CREDENTIAL_HEADER = /auth|key|token|secret|passw|cookie|session|signature|credential/i;

/** A key as one segment of a JSON pointer (RFC 6901). */
export const pointerSegment = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

export const isCredentialHeader = (name: string): boolean => CREDENTIAL_HEADER.test(name);

export const withSecretOrigins = (profile: Profile, origins: SecretOrigins): Profile => {
  const marked: WithOrigins = { ...profile, [ORIGINS]: origins };
  return marked;
};

/**
 * The name of the variable the profile writes the string at `pointer` as (`/clients/restricted/client_secret` written
 * `${R_SECRET}` is `R_SECRET`), when it is one `${VAR}` whole; undefined otherwise (inline, or text around it).
 */
export const variableAt = (profile: Profile, pointer: string): string | undefined =>
  (profile as WithOrigins)[ORIGINS]?.fromEnvironment.find((v) => v.pointer === pointer && v.whole)?.name;

const warned = new Set<string>();

/**
 * Says the profile's plain-text warning through `warn` (stderr's sink), once per process (`certify` runs conformance
 * and load on one profile); it names the file and the profile's keys, so it is escaped as they are. Called as a run
 * starts, so a refused command still says only what is wrong.
 */
export const warnOfPlainTextSecrets = (profile: Profile, warn: (line: TerminalText) => void): void => {
  const line = (profile as WithOrigins)[ORIGINS]?.plainTextWarning;
  if (line === undefined || warned.has(line)) return;
  warned.add(line);
  warn(tty`${line}`);
};

/** The warning line for secrets at these JSON pointers of `source`, quoting none of them. */
export const plainTextWarning = (source: string, pointers: readonly string[]): string | undefined =>
  pointers.length === 0
    ? undefined
    : `harness: warning: ${source}: ${pointers.join(', ')}: a secret written in the profile itself; take it from the environment (\${VAR}) so it stays out of files`;

/**
 * Shorter values are left alone: hiding one would hide that letter or pair in every word of every report, and a
 * secret that short keeps nothing secret anyway.
 */
const MIN_SECRET_LENGTH = 4;

/** Every value of the profile that must be redacted. */
export const profileSecrets = (profile: Profile): string[] => {
  const headers = Object.values(profile.requests ?? {}).flatMap((request) =>
    Object.entries(request?.headers ?? {})
      .filter(([name]) => isCredentialHeader(name))
      .map(([, value]) => value),
  );
  return [
    ...new Set([
      ...Object.values(profile.clients).map((client) => client.client_secret),
      ...headers,
      ...((profile as WithOrigins)[ORIGINS]?.fromEnvironment ?? []).map((variable) => variable.value),
    ]),
  ].filter((value) => value.length >= MIN_SECRET_LENGTH);
};

/** A redactor knowing these secrets (empty ones ignored). */
export const redactorFor = (secrets: Iterable<string>): Redactor => {
  const redactor = new Redactor();
  for (const secret of secrets) redactor.addSecret(secret);
  return redactor;
};

/** Teaches `redactor` the profile's secrets, and each client's id and secret as HTTP Basic sends them. */
export const teachProfile = (redactor: Redactor, profile: Profile): Redactor => {
  for (const secret of profileSecrets(profile)) redactor.addSecret(secret);
  for (const { client_id, client_secret } of Object.values(profile.clients)) {
    if (client_secret.length >= MIN_SECRET_LENGTH) redactor.addClient(client_id, client_secret);
  }
  return redactor;
};

/** A redactor knowing the profile's secrets: for what harness prints or writes about the profile outside a run. */
export const profileRedactor = (profile: Profile): Redactor => teachProfile(new Redactor(), profile);

/**
 * A user name or password in a URL is never sent (harness authenticates with tokens) and would be shown wherever
 * the URL is: refused, naming the field, never the value.
 */
export const refuseUserinfo = (profile: Profile, source: string): void => {
  for (const field of ['base_url', 'auth_url'] as const) {
    const url = URL.canParse(profile[field]) ? new URL(profile[field]) : undefined;
    if (url !== undefined && (url.username !== '' || url.password !== '')) {
      throw new InputError(
        `${source}: /${field}: holds a user name or password, which harness would not send and must not show; remove it (the token endpoint takes the client credentials)`,
      );
    }
  }
};

/**
 * The JSON pointers of secrets written in the profile itself rather than through `${VAR}`: they end up in a file,
 * likely a repository. `fromEnvironment` holds the pointers of every string that had a reference.
 */
export const plainTextSecrets = (profile: Profile, fromEnvironment: ReadonlySet<string>): string[] => {
  const pointers = [
    ...Object.keys(profile.clients).map((role) => `/clients/${role}/client_secret`),
    ...Object.entries(profile.requests ?? {}).flatMap(([key, request]) =>
      Object.keys(request?.headers ?? {})
        .filter(isCredentialHeader)
        .map((name) => `/requests/${pointerSegment(key)}/headers/${pointerSegment(name)}`),
    ),
  ];
  return pointers.filter((pointer) => !fromEnvironment.has(pointer));
};
