// One double-quoted shell word of a reproduction, built from parts: text kept as it is (from evidence, which may quote
// a target), variables standing for secrets, and shell text harness itself wrote (a token cut as a check cut it).
// Each secret has one documented name (docs/reports.md): a client's id and secret by its role
// ($CLIENT_ID and $CLIENT_SECRET for the primary, $RESTRICTED_CLIENT_SECRET and the like for another), a token
// $ACCESS_TOKEN, a credential header its name ($X_API_KEY), any other value the run hides $SECRET.
import { REDACTED } from '../client/index.ts';
import type { ClientRole } from '../spec/index.ts';

export type Part = string | { readonly variable: string } | { readonly shell: string };
export type ShellWord = readonly Part[];

export const ACCESS_TOKEN = 'ACCESS_TOKEN';
/** A token as evidence shows it (redact.ts's redactToken). */
export const REDACTED_TOKEN = /\S*…\(sha256:[0-9a-f]{12}\)/g;

/** The shell variables for `client`'s credentials: the primary's unprefixed, another's prefixed with its role. */
export const clientVariables = (client: ClientRole): { readonly id: string; readonly secret: string } => {
  const prefix = client === 'primary' ? '' : `${client.toUpperCase()}_`;
  return { id: `${prefix}CLIENT_ID`, secret: `${prefix}CLIENT_SECRET` };
};

/** `x-api-key` is kept in $X_API_KEY. */
export const headerVariable = (name: string): string => name.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/**
 * Double-quoted: text with nothing expanded, variables expanded (braced where a name character follows, so
 * `$CLIENT_ID` never runs into the text after it), harness's own shell text as written.
 */
export const dq = (parts: ShellWord): string => {
  const words = parts.map((part, at) => {
    if (typeof part === 'string') return part.replace(/[\\"`$]/g, '\\$&');
    if ('shell' in part) return part.shell;
    const next = parts[at + 1];
    return typeof next === 'string' && /^\w/.test(next) ? `\${${part.variable}}` : `$${part.variable}`;
  });
  return `"${words.join('')}"`;
};

/** The text parts cut at every match of `pattern`, each match turned into the variable `variableOf` names. */
const splitOn = (
  parts: ShellWord,
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
 * Evidence text with the variables standing for what it redacted: a token as $ACCESS_TOKEN; in a body, the client's
 * id and secret by their fields; anything else as `otherwise` (a header's own name, $SECRET elsewhere).
 */
export const placeholders = (value: string, client: ClientRole, otherwise: string, body = false): Part[] => {
  const variables = clientVariables(client);
  const tokens = splitOn([value], REDACTED_TOKEN, () => ACCESS_TOKEN);
  const fields = body
    ? splitOn(tokens, CLIENT_FIELD, (match) =>
        (match[1] ?? match[2]) === 'client_id' ? variables.id : variables.secret,
      )
    : tokens;
  return splitOn(fields, new RegExp(REDACTED_TEXT, 'g'), () => otherwise);
};
