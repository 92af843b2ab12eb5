export { ApiClient, type ApiRequest, exampleRequest } from './api.ts';
export { classifyError, TargetError, TokenError } from './errors.ts';
export {
  DEFAULT_MAX_BODY_BYTES,
  type Evidence,
  type EvidenceRequest,
  type EvidenceResponse,
  Exchange,
  isSuccess,
} from './evidence.ts';
export {
  HttpClient,
  type HttpClientOptions,
  type SendRequest,
  type Transport,
} from './http.ts';
export { quoteJson } from './json-quote.ts';
export {
  type QuotaPolicy,
  type RateLimitReading,
  rateLimitResetSeconds,
  readRateLimitFields,
} from './ratelimit-fields.ts';
export { REDACTED, Redactor, redactToken } from './redact.ts';
export { issuedToken, type TokenClient, TokenManager } from './tokens.ts';
