export { ApiClient, type ApiClientOptions, type ApiRequest, exampleRequest } from './api.ts';
export { classifyError, TargetError, TokenError } from './errors.ts';
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_EVIDENCE_BODY,
  type Evidence,
  type EvidenceRequest,
  type EvidenceResponse,
  Exchange,
  isSuccess,
  type TargetErrorKind,
} from './evidence.ts';
export { HttpClient, type HttpClientOptions, type SendRequest } from './http.ts';
export { QUOTE_DEPTH, quoteJson } from './json-quote.ts';
export { REDACTED, Redactor, redactToken } from './redact.ts';
export {
  type IssuedToken,
  issuedToken,
  type TokenClient,
  TokenManager,
  type TokenManagerOptions,
} from './tokens.ts';
