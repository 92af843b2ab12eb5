// Reproduction commands built from redacted evidence. Each secret appears as a shell variable with one documented name
// (README, Reading the report): a client's id and secret by its role ($CLIENT_ID and $CLIENT_SECRET for the primary,
// $RESTRICTED_CLIENT_SECRET and the like for another), a token as $ACCESS_TOKEN (set by the command before it, for
// the client the check used), a credential header by its name ($X_API_KEY), any other value as $SECRET. So a command
// runs in a shell that has them set, and no report ever needs the real values.
import { type Evidence, REDACTED } from '../client/index.ts';
import { harnessCommand } from '../command-line.ts';
import { type ClientRole, GRANT_TYPE, type Profile, scopeFor } from '../spec/index.ts';

/** An exchange a check recorded, and the client whose token or credentials it sent. */
export interface Sent {
  readonly evidence: Evidence;
  readonly client: ClientRole;
}

/** What a reproduction needs of the run: the profile, and how the run hides its secrets (the redactor's `known`). */
export interface ReproContext {
  readonly profile: Profile;
  readonly hide: (text: string) => string;
}

/** A piece of a shell word: text to keep as it is, or a variable to expand. */
type Part = string | { readonly variable: string };

const ACCESS_TOKEN = 'ACCESS_TOKEN';
const REDACTED_TOKEN = /\S*…\(sha256:[0-9a-f]{12}\)/g;

/** The shell variables for `client`'s credentials: the primary's unprefixed, another's prefixed with its role. */
export const clientVariables = (client: ClientRole): { readonly id: string; readonly secret: string } => {
  const prefix = client === 'primary' ? '' : `${client.toUpperCase()}_`;
  return { id: `${prefix}CLIENT_ID`, secret: `${prefix}CLIENT_SECRET` };
};

/** `x-api-key` is kept in $X_API_KEY. */
const headerVariable = (name: string): string => name.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/**
 * Double-quoted for the shell: text with nothing expanded, variables expanded (braced where a name character follows,
 * so `$CLIENT_ID` never runs into the text after it).
 */
const dq = (parts: readonly Part[]): string => {
  const words = parts.map((part, at) => {
    if (typeof part === 'string') return part.replace(/[\\"`$]/g, '\\$&');
    const next = parts[at + 1];
    return typeof next === 'string' && /^\w/.test(next) ? `\${${part.variable}}` : `$${part.variable}`;
  });
  return `"${words.join('')}"`;
};

/** The text parts cut at every match of `pattern`, each match turned into the variable `variableOf` names. */
const splitOn = (
  parts: readonly Part[],
  pattern: RegExp,
  variableOf: (match: RegExpMatchArray) => string,
): Part[] =>
  parts.flatMap((part) => {
    if (typeof part !== 'string') return [part];
    const out: Part[] = [];
    let last = 0;
    for (const match of part.matchAll(pattern)) {
      out.push(part.slice(last, match.index), { variable: variableOf(match) });
      last = match.index + match[0].length;
    }
    out.push(part.slice(last));
    return out.filter((piece) => piece !== '');
  });

/** `[REDACTED]`, as a pattern: what evidence shows for a secret. */
const REDACTED_TEXT = REDACTED.replace(/[[\]]/g, '\\$&');

/** A client's id or secret where a form or JSON body names it, the only place either is sent. */
const CLIENT_FIELD = new RegExp(
  `(?<=(?:^|&)(client_id|client_secret)=|"(client_id|client_secret)"\\s*:\\s*")${REDACTED_TEXT}`,
  'g',
);

/**
 * The variables standing for what evidence redacted: a token as $ACCESS_TOKEN; in a body, the client's id and secret
 * by their fields; anything else as `otherwise` (a header's own name, $SECRET elsewhere).
 */
const placeholders = (value: string, client: ClientRole, otherwise: string, body = false): Part[] => {
  const variables = clientVariables(client);
  const tokens = splitOn([value], REDACTED_TOKEN, () => ACCESS_TOKEN);
  const fields = body
    ? splitOn(tokens, CLIENT_FIELD, (match) =>
        (match[1] ?? match[2]) === 'client_id' ? variables.id : variables.secret,
      )
    : tokens;
  return splitOn(fields, new RegExp(REDACTED_TEXT, 'g'), () => otherwise);
};

const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection']);

/** The request of `sent` as a curl command. */
export const curlFor = ({ evidence, client }: Sent): string => {
  const { method, url, headers, body } = evidence.request;
  const words = [`curl -sS -i -X ${method} ${dq(placeholders(url, client, 'SECRET'))}`];
  for (const [name, value] of Object.entries(headers)) {
    if (!SKIPPED_HEADERS.has(name))
      words.push(`-H ${dq([`${name}: `, ...placeholders(value, client, headerVariable(name))])}`);
  }
  if (body !== undefined) words.push(`--data-raw ${dq(placeholders(body, client, 'SECRET', true))}`);
  return words.join(' ');
};

/**
 * How to get $ACCESS_TOKEN for `client` the way SPEC.md §5 rule 1 says, as harness got it (its tenant's scope). What
 * the run hides of the profile (an id from the environment, say) is a variable here too.
 */
export const tokenCommand = (client: ClientRole, { profile, hide }: ReproContext): string => {
  const { client_id, tenant } = profile.clients[client] ?? profile.clients.primary;
  const form = new URLSearchParams({
    grant_type: GRANT_TYPE,
    client_id,
    client_secret: REDACTED,
    scope: scopeFor(tenant ?? profile.tenant),
  })
    .toString()
    .replace(encodeURIComponent(REDACTED), REDACTED);
  const url = dq(placeholders(hide(profile.auth_url), client, 'SECRET'));
  const data = dq(placeholders(hide(form), client, 'SECRET', true));
  return `${ACCESS_TOKEN}=$(curl -sS -X POST ${url} -H "content-type: application/x-www-form-urlencoded" --data-raw ${data} | sed -E 's/.*"access_token" *: *"([^"]+)".*/\\1/')`;
};

/** The exchange as commands: preceded by the token request when it uses a token. */
export const reproFor = (sent: Sent | undefined, context: ReproContext): string[] => {
  if (sent === undefined) return [];
  const command = curlFor(sent);
  return command.includes(`$${ACCESS_TOKEN}`) ? [tokenCommand(sent.client, context), command] : [command];
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
  sent: Sent,
  context: ReproContext,
): string[] => [
  ...(replayArguments === undefined ? [] : [replayCommand(checkId, replayArguments)]),
  '# one request of the burst, by hand:',
  ...reproFor(sent, context),
];
