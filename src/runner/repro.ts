// Reproduction commands built from redacted evidence: secrets appear as $CLIENT_SECRET / $ACCESS_TOKEN placeholders,
// so a command can be pasted into a shell that has them set, and no report ever needs the real values.
import { type Evidence, REDACTED } from '../client/index.ts';
import { GRANT_TYPE, type Profile, scopeFor } from '../spec/index.ts';

const REDACTED_TOKEN = /\S*…\(sha256:[0-9a-f]{12}\)/g;

/** Double-quoted for the shell, with placeholders left to expand. */
const dq = (value: string): string => {
  const escaped = value.replace(/[\\"`$]/g, '\\$&');
  return `"${escaped
    .replaceAll(`\\$CLIENT_SECRET`, '$CLIENT_SECRET')
    .replaceAll(`\\$ACCESS_TOKEN`, '$ACCESS_TOKEN')}"`;
};

const placeholders = (value: string): string =>
  value.replaceAll(REDACTED, '$CLIENT_SECRET').replace(REDACTED_TOKEN, '$ACCESS_TOKEN');

const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection']);

export const curlFor = (evidence: Evidence, extra = ''): string => {
  const { method, url, headers, body } = evidence.request;
  const parts = [`curl -sS -i -X ${method} ${dq(placeholders(url))}`];
  for (const [name, value] of Object.entries(headers)) {
    if (!SKIPPED_HEADERS.has(name)) parts.push(`-H ${dq(`${name}: ${placeholders(value)}`)}`);
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

/** A loop that replays a probe: `count` requests, printing each status and Retry-After. */
export const loopFor = (evidence: Evidence, count: number, profile: Profile): string[] => [
  tokenCommand(profile),
  `for i in $(seq 1 ${count}); do ${curlFor(evidence, ` -o /dev/null -w '%{http_code} retry-after=%header{retry-after}\\n'`).replace(' -i ', ' ')}; done`,
];
