// What harness knows of its token reader in one place, for the k6 driver (src/k6-driver/k6.ts), the k6 script
// (load/lib) and the verdict (core/verdict.ts) alike: plain TypeScript, no Node import, since k6 runs it too.
import type { TokenFailures, UnreadTokenAnswer } from './evidence.ts';
import { MAX_TOKEN_BODY_BYTES } from './wire.ts';

/** The JS module `npm run setup` builds into k6 (load/checkpoint/token.go): token answers read as sent, to a cap. */
export const TOKEN_MODULE = 'k6/x/harness-token';

// How the CLI tells load/probe.ts that the k6 running it reads token answers through TOKEN_MODULE: the script may
// require that module only then, since a stock k6 fails a script that asks for an extension it lacks, caught or not.
export const TOKEN_READER_ENV = 'HARNESS_TOKEN_READER';
export const CAPPED_READER = 'capped';

const UNREAD_ANSWER: Readonly<Record<UnreadTokenAnswer, string>> = {
  encoded: 'an encoded answer (Content-Encoding) though identity was asked for',
  oversized: `an answer over ${MAX_TOKEN_BODY_BYTES} bytes`,
};

const WHAT_BECAME_OF_IT: Readonly<Record<UnreadTokenAnswer, { capped: string; stock: string }>> = {
  encoded: { capped: 'not decoded', stock: 'decoded whole by this stock k6 before it could be refused' },
  oversized: { capped: 'not read past them', stock: 'read whole by this stock k6' },
};

/**
 * What the token endpoint did that left its answer without a token, and what the reader did with it: `capped` when
 * read through TOKEN_MODULE, else a stock k6 took the whole answer in first. Said after "the token endpoint".
 */
export const unreadTokenAnswerSaid = (answer: UnreadTokenAnswer, capped: boolean): string =>
  `sent ${UNREAD_ANSWER[answer]}: ${WHAT_BECAME_OF_IT[answer][capped ? 'capped' : 'stock']}`;

/**
 * What the token endpoint said to the requests that got no token: a status, a range of them, or nothing, and why
 * answers harness's reader left unread were not read.
 */
export const tokenEndpointSaid = ({ count, minStatus, maxStatus, unread = [] }: TokenFailures): string => {
  const requests = `${count} token requests`;
  if (maxStatus === 0) return `did not answer to ${requests}`;
  // Only the capped reader records the answers it left unread (load/lib/auth.ts): a stock k6 records none.
  const why = unread.map((answer) => unreadTokenAnswerSaid(answer, true)).join(', and ');
  if (minStatus === 200 && maxStatus === 200)
    return why === ''
      ? `answered 200 without an access_token to ${requests}`
      : `${why}; ${requests} got no token`;
  const statuses = minStatus === maxStatus ? `${maxStatus}` : `${minStatus} to ${maxStatus}`;
  return `answered ${statuses}${minStatus === 0 ? ' (0: no answer)' : ''} to ${requests}${why === '' ? '' : `; it ${why}`}`;
};
