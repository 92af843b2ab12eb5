// Reproduction commands, built from redacted evidence with every secret a shell variable (shell-word.ts), so a command
// runs in a shell that has them set and no report ever needs the real values. A client's id or secret the profile
// takes from `${VAR}` is named by that variable, which the user has already set; one written inline, by its
// documented name (shell-word.ts). A command sends what the check sent: as the client the check used, with the token
// it used as many times and as late as it used it, and a value harness made from a secret (a wrong secret, a cut
// token) made again in the shell.
import type { Evidence } from '../client/index.ts';
import { harnessCommand } from '../command-line.ts';
import { pointerSegment, variableAt } from '../profile/secrets.ts';
import { type ClientRole, GRANT_TYPE, type Profile, scopeFor } from '../spec/index.ts';
import {
  ACCESS_TOKEN,
  clientVariables,
  dq,
  headerVariable,
  type Part,
  placeholders,
  REDACTED_TOKEN,
  type ShellWord,
} from './shell-word.ts';

/** What a check wrote itself of a request, where the evidence hid a value harness made rather than a secret. */
export interface Written {
  readonly body?: ShellWord;
  readonly authorization?: ShellWord;
}

/** An exchange a check recorded, the client whose token or credentials it sent, and what the check wrote itself. */
export interface Sent {
  readonly evidence: Evidence;
  readonly client: ClientRole;
  readonly written?: Written;
}

/** What a reproduction needs of the run: the profile, and how the run hides its secrets (the redactor's `known`). */
export interface ReproContext {
  readonly profile: Profile;
  readonly hide: (text: string) => string;
}

/**
 * The shell variables for `client`'s id and secret: the profile's own `${VAR}` where it writes the field as one, the
 * documented name otherwise.
 */
export const clientVariablesIn = (
  profile: Profile,
  client: ClientRole,
): { readonly id: string; readonly secret: string } => {
  const documented = clientVariables(client);
  return {
    id: variableAt(profile, `/clients/${client}/client_id`) ?? documented.id,
    secret: variableAt(profile, `/clients/${client}/client_secret`) ?? documented.secret,
  };
};

/**
 * The shell variable for credential header `name`: the profile's own `${VAR}` where every request that sets the
 * header writes it as that one variable (so the value sent is surely its value), the documented name otherwise.
 */
const headerVariableIn = (profile: Profile, name: string): string => {
  const written = Object.entries(profile.requests ?? {}).flatMap(([key, request]) =>
    Object.keys(request?.headers ?? {})
      .filter((header) => header.toLowerCase() === name.toLowerCase())
      .map((header) =>
        variableAt(profile, `/requests/${pointerSegment(key)}/headers/${pointerSegment(header)}`),
      ),
  );
  const [first] = written;
  return first !== undefined && written.every((variable) => variable === first)
    ? first
    : headerVariable(name);
};

/** A body's parts (shell-word.ts's `placeholders`) with `client`'s documented variables as the profile names them. */
const withProfileNames = (parts: ShellWord, profile: Profile, client: ClientRole): ShellWord => {
  const documented = clientVariables(client);
  const own = clientVariablesIn(profile, client);
  const names = new Map([
    [documented.id, own.id],
    [documented.secret, own.secret],
  ]);
  return parts.map((part) =>
    typeof part !== 'string' && 'variable' in part
      ? { variable: names.get(part.variable) ?? part.variable }
      : part,
  );
};

const decodeForm = (value: string): string => {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return value;
  }
};

/**
 * A form body harness built, for the shell: a client's secret (and its id, where the run hides it) as that client's
 * variable, any other value as sent (a wrong secret a check made up stays itself) unless the run hides it.
 */
export const formWord = (body: string, { profile, hide }: ReproContext): ShellWord => {
  const roles = Object.keys(profile.clients) as ClientRole[];
  const fieldValue = (name: string, value: string): Part => {
    const decoded = decodeForm(value);
    const client = (role: ClientRole) => profile.clients[role]!;
    const secretOf = roles.find((role) => name === 'client_secret' && client(role).client_secret === decoded);
    if (secretOf !== undefined) return { variable: clientVariablesIn(profile, secretOf).secret };
    const idOf = roles.find((role) => name === 'client_id' && client(role).client_id === decoded);
    if (idOf !== undefined && hide(decoded) !== decoded)
      return { variable: clientVariablesIn(profile, idOf).id };
    return hide(value) === value ? value : { variable: 'SECRET' };
  };
  return body.split('&').flatMap((pair, at) => {
    const equals = pair.indexOf('=');
    const separator = at === 0 ? [] : ['&'];
    if (equals < 0) return [...separator, hide(pair) === pair ? pair : { variable: 'SECRET' }];
    const name = pair.slice(0, equals);
    return [...separator, `${name}=`, fieldValue(name, pair.slice(equals + 1))];
  });
};

const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection']);

/** The request of `sent` as a curl command; `-i` shows the answer's status and headers, which prove the grade. */
export const curlFor = (
  { evidence, client, written = {} }: Sent,
  { profile }: ReproContext,
  showHeaders = true,
): string => {
  const { method, url, headers, body } = evidence.request;
  const words = [
    `curl -sS${showHeaders ? ' -i' : ''} -X ${method} ${dq(placeholders(url, client, 'SECRET'))}`,
  ];
  for (const [name, value] of Object.entries(headers)) {
    if (SKIPPED_HEADERS.has(name)) continue;
    const shown = name === 'authorization' ? written.authorization : undefined;
    const word = shown ?? placeholders(value, client, headerVariableIn(profile, name));
    words.push(`-H ${dq([`${name}: `, ...word])}`);
  }
  if (body !== undefined)
    words.push(
      `--data-raw ${dq(written.body ?? withProfileNames(placeholders(body, client, 'SECRET', true), profile, client))}`,
    );
  return words.join(' ');
};

const TOKEN_OF_ANSWER = `| sed -E 's/.*"access_token" *: *"([^"]+)".*/\\1/'`;

/**
 * How to get $ACCESS_TOKEN for `client` the way SPEC.md §5 rule 1 says, as harness got it (its tenant's scope). What
 * the run hides of the profile (an id from the environment, say) is a variable here too.
 */
export const tokenCommand = (client: ClientRole, context: ReproContext): string => {
  const { profile, hide } = context;
  const { client_id, client_secret, tenant } = profile.clients[client] ?? profile.clients.primary;
  const form = new URLSearchParams({
    grant_type: GRANT_TYPE,
    client_id,
    client_secret,
    scope: scopeFor(tenant ?? profile.tenant),
  }).toString();
  const url = dq(placeholders(hide(profile.auth_url), client, 'SECRET'));
  const data = dq(formWord(form, context));
  return `${ACCESS_TOKEN}=$(curl -sS -X POST ${url} -H "content-type: application/x-www-form-urlencoded" --data-raw ${data} ${TOKEN_OF_ANSWER})`;
};

/** The token an exchange sent as a bearer, as evidence shows it. */
const bearerOf = (evidence: Evidence): string | undefined =>
  /^bearer +(.+)$/i.exec(evidence.request.headers.authorization ?? '')?.[1]?.match(REDACTED_TOKEN)?.[0];

/** A command that sends $ACCESS_TOKEN, whole or made into another (`${ACCESS_TOKEN:0:22}`). */
const USES_TOKEN = new RegExp(`\\$\\{?${ACCESS_TOKEN}\\b`);

const endOf = (evidence: Evidence): number => Date.parse(evidence.startedAt) + evidence.durationMs;

/** `sleep` for as long as the check waited between two exchanges, when that was a second or more (an expiry). */
const pause = (before: Evidence | undefined, after: Evidence): string[] => {
  if (before === undefined) return [];
  const ms = Date.parse(after.startedAt) - endOf(before);
  return ms >= 1000 ? [`sleep ${Math.ceil(ms / 1000)}`] : [];
};

/**
 * The key exchange (the last recorded) as commands. One that sends a token follows the request that got it (the
 * check's own, when it recorded it), and every request of the check like it with the same token comes in order, with
 * the check's waits: a token refused on its second use, or served after it expired, shows only so.
 */
export const reproFor = (sent: readonly Sent[], context: ReproContext): string[] => {
  const key = sent.at(-1);
  if (key === undefined) return [];
  const command = curlFor(key, context);
  if (!USES_TOKEN.test(command)) return [command];
  const token = bearerOf(key.evidence);
  const { method, url } = key.evidence.request;
  const uses =
    token === undefined || key.written?.authorization
      ? [key]
      : sent.filter(
          ({ evidence }) =>
            bearerOf(evidence) === token &&
            evidence.request.method === method &&
            evidence.request.url === url,
        );
  const issued = sent.find(
    (s) => token !== undefined && s.evidence.response?.body?.includes(`"access_token":"${token}"`),
  );
  const lines = [
    issued
      ? `${ACCESS_TOKEN}=$(${curlFor(issued, context, false)} ${TOKEN_OF_ANSWER})`
      : tokenCommand(key.client, context),
  ];
  let last = issued?.evidence;
  for (const use of uses) {
    lines.push(...pause(last, use.evidence), curlFor(use, context));
    last = use.evidence;
  }
  return lines;
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
  ...reproFor([sent], context),
];
