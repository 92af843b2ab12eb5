// One grading of a 429's Retry-After for conformance (LIMIT-RETRY-AFTER-*) and load (each phase's 429s), so the
// same header never gets FAIL from one and WARN from the other. Pure TypeScript: k6 and Node both run it.
// SPEC.md §8 rule 2 asks for integer seconds, nothing more: a value missing or of another form is a FAIL, made where
// the value is read (conformance: probe-result.ts; load: request.ts, with spec.generated.json's same pattern).

/** A number of seconds as digits: past 10^21 JavaScript would write it as 1e+21, and a header never says that. */
const wholeSeconds = (seconds: number): string => (seconds < 1e21 ? String(seconds) : 'over 10^21');

/**
 * WARN, never FAIL: SPEC.md does not bound Retry-After, but a wait longer than the window (in whole seconds,
 * rounded up as an integer header must be) cannot be the time until capacity returns. Undefined within it.
 */
export const retryAfterBeyondWindow = (
  seconds: number,
  windowMs: number,
  shown = wholeSeconds(seconds),
): string | undefined => {
  const windowSeconds = Math.ceil(windowMs / 1000);
  return seconds > windowSeconds
    ? `Retry-After is ${shown} s, longer than the ${windowSeconds} s window (SPEC.md §8 rule 2 asks only for integer seconds)`
    : undefined;
};
