// Reproduction commands built from redacted evidence: secrets appear as shell variables ($CLIENT_SECRET,
// $ACCESS_TOKEN, $X_API_KEY for an x-api-key header, $SECRET for any other), so a command can be pasted into a shell
// that has them set, and no report ever needs the real values.
import { type Evidence, REDACTED } from '../client/index.ts';
import { harnessCommand } from '../command-line.ts';
import { GRANT_TYPE, type Profile, scopeFor } from '../spec/index.ts';

const REDACTED_TOKEN = /\S*…\(sha256:[0-9a-f]{12}\)/g;

/** Double-quoted for the shell, with the placeholders left to expand (and any other `$` kept literal). */
const dq = (value: string, variables: readonly string[] = []): string => {
  let escaped = value.replace(/[\\"`$]/g, '\\$&');
  for (const variable of ['CLIENT_SECRET', 'ACCESS_TOKEN', 'SECRET', ...variables]) {
    escaped = escaped.replaceAll(`\\$${variable}`, `$${variable}`);
  }
  return `"${escaped}"`;
};

/** The shell variable standing for a redacted value: the client secret's where the form or JSON names it. */
const placeholders = (value: string, variable = 'SECRET'): string =>
  value
    .replaceAll(`client_secret=${REDACTED}`, 'client_secret=$CLIENT_SECRET')
    .replaceAll(`"client_secret":"${REDACTED}"`, '"client_secret":"$CLIENT_SECRET"')
    .replaceAll(REDACTED, `$${variable}`)
    .replace(REDACTED_TOKEN, '$ACCESS_TOKEN');

/** `x-api-key` is kept in $X_API_KEY. */
const headerVariable = (name: string): string => name.toUpperCase().replace(/[^A-Z0-9]/g, '_');

const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection']);

export const curlFor = (evidence: Evidence, extra = ''): string => {
  const { method, url, headers, body } = evidence.request;
  const parts = [`curl -sS -i -X ${method} ${dq(placeholders(url))}`];
  for (const [name, value] of Object.entries(headers)) {
    const variable = headerVariable(name);
    if (!SKIPPED_HEADERS.has(name))
      parts.push(`-H ${dq(`${name}: ${placeholders(value, variable)}`, [variable])}`);
  }
  if (body !== undefined) parts.push(`--data-raw ${dq(placeholders(body))}`);
  return `${parts.join(' ')}${extra}`;
};

/** How to get $ACCESS_TOKEN the way SPEC.md §5 rule 1 says, with the profile's client id and tenant. */
export const tokenCommand = (profile: Profile): string => {
  const form = `grant_type=${GRANT_TYPE}&client_id=${encodeURIComponent(profile.clients.primary.client_id)}&client_secret=$CLIENT_SECRET&scope=${encodeURIComponent(scopeFor(profile.tenant))}`;
  return `ACCESS_TOKEN=$(curl -sS -X POST ${dq(profile.auth_url)} -H "content-type: application/x-www-form-urlencoded" --data-raw ${dq(form)} | sed -E 's/.*"access_token" *: *"([^"]+)".*/\\1/')`;
};

/** The key exchange (the last recorded), preceded by the token request when it uses a token. */
export const reproFor = (evidence: readonly Evidence[], profile: Profile): string[] => {
  const last = evidence.at(-1);
  if (last === undefined) return [];
  const command = curlFor(last);
  return command.includes('$ACCESS_TOKEN') ? [tokenCommand(profile), command] : [command];
};

/** The command that runs the check again against the same target (`replayArguments`: see replay-arguments.ts). */
export const replayCommand = (checkId: string, replayArguments: readonly string[]): string =>
  harnessCommand(['replay', checkId, ...replayArguments]);

/**
 * A probe's burst (a limit and more within one window, from a pool of connections) is more than a shell loop of curls
 * can send in time, so it is reproduced by `harness replay`, which runs the check again with its probe; one request
 * of the burst follows, to send by hand. `replayArguments` are those that reach the target again (none in-process).
 */
export const replayFor = (
  checkId: string,
  replayArguments: readonly string[] | undefined,
  evidence: Evidence,
  profile: Profile,
): string[] => [
  ...(replayArguments === undefined ? [] : [replayCommand(checkId, replayArguments)]),
  '# one request of the burst, by hand:',
  ...reproFor([evidence], profile),
];
