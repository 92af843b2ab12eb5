// What to do about an INCONCLUSIVE phase whose cause was harness's own shortfall, not the server's answer: the
// verdict names the shortfall (core/verdict.ts), this names the remedy, once per kind for the whole run.

/** The shortfalls core/verdict.ts reports when k6 could not keep the schedule on this machine. */
const MACHINE_SHORT =
  /iterations dropped|CPU starved|requests sent after the phase's end|instances started .* apart/;
const TOKEN_SHORT = /for want of a token/;
/** Runners on several machines whose clocks the target's Date headers could not line up closely enough. */
const CLOCK_SHORT = /the runners' starts (may lie|cannot be compared)/;

export const inconclusiveAdvice = (messages: readonly string[]): string[] => {
  const advice: string[] = [];
  if (messages.some((m) => MACHINE_SHORT.test(m))) {
    advice.push(
      'advice: k6 could not keep the schedule here (dropped iterations, CPU starved or late starts): ' +
        'run with fewer other jobs on this machine, split the load with --instances N, or use a bigger runner',
    );
  }
  if (messages.some((m) => TOKEN_SHORT.test(m))) {
    advice.push(
      'advice: requests went unsent for want of a token: look at the token endpoint (its answers are named above)',
    );
  }
  if (messages.some((m) => CLOCK_SHORT.test(m))) {
    advice.push(
      "advice: the runners' clocks could not be lined up through the target's Date headers within a tenth of a " +
        'window: run them nearer the target (the bound grows with the round trip), keep their clocks synchronised, ' +
        'or run per-second limits with --instances on one machine',
    );
  }
  return advice;
};
