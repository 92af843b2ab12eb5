// How `harness replay` reaches the target a conformance run reached: that run's target flags, as the user gave them.
// A profile goes by its path, never its contents, so its secrets come from the environment again and no report
// prints one.
import type { ConformanceOptions } from './commands.ts';

const TARGET_FLAGS = {
  profile: '--profile',
  baseUrl: '--base-url',
  authUrl: '--auth-url',
  tenant: '--tenant',
  fault: '--fault',
  ratelimitFields: '--ratelimit-fields',
  ca: '--ca',
  cert: '--cert',
  key: '--key',
  timeout: '--timeout',
  insecure: '--insecure',
  // A WARN fails the run only with --strict: the replay's exit code follows the run's.
  strict: '--strict',
} as const satisfies Partial<Record<keyof ConformanceOptions, string>>;

export const replayArgumentsOf = (options: ConformanceOptions): string[] => [
  ...Object.entries(TARGET_FLAGS).flatMap(([field, flag]) => {
    const value = options[field as keyof typeof TARGET_FLAGS];
    if (value === undefined) return [];
    return value === true ? [flag] : [flag, String(value)];
  }),
  // Opaque tokens are the default, and the only kind a profile's target can be told to hand out.
  ...(options.tokens === 'jwt' ? ['--tokens', 'jwt'] : []),
];
