// One digest of SPEC.md's tables as harness holds them (limits, endpoints, token and error rules), stamped on every
// report: `harness compare` refuses two runs judged against different data, whose verdicts would not mean the same.
import { createHash } from 'node:crypto';
import {
  AUTH_RULES,
  ERROR_STATUSES,
  GRANT_TYPE,
  TOKEN_LIFETIME_SECONDS,
  TOKEN_REQUEST_FIELDS,
  TOKEN_TYPE,
} from './auth.ts';
import { BUCKETS, ENDPOINTS } from './endpoints.ts';

const SPEC_DATA = {
  buckets: BUCKETS,
  endpoints: ENDPOINTS,
  token: { grantType: GRANT_TYPE, type: TOKEN_TYPE, lifetimeSeconds: TOKEN_LIFETIME_SECONDS },
  tokenRequest: TOKEN_REQUEST_FIELDS,
  auth: AUTH_RULES,
  errors: ERROR_STATUSES,
};

let digest: string | undefined;

/** `sha256:` and the hex digest of the spec data as JSON (computed once). */
export const specDigest = (): string => {
  digest ??= `sha256:${createHash('sha256').update(JSON.stringify(SPEC_DATA)).digest('hex')}`;
  return digest;
};
