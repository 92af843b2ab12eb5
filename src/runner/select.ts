// --only / --skip / --slow: which checks run. Names are check IDs or tags, matched without regard to case.
import { suggestionFor } from '../did-you-mean.ts';
import { InputError } from '../errors.ts';
import type { Selected } from './plan.ts';
import type { CheckDefinition } from './types.ts';

export interface SelectOptions {
  readonly only?: readonly string[];
  readonly skip?: readonly string[];
  readonly slow?: boolean;
}

const matches = (check: CheckDefinition, names: readonly string[]): boolean =>
  names.some((name) => name === check.id.toLowerCase() || check.tags.includes(name));

export const selectChecks = (checks: readonly CheckDefinition[], options: SelectOptions): Selected[] => {
  const ids = new Map(checks.map((c) => [c.id.toLowerCase(), c.id]));
  const known = [...new Set([...ids.keys(), ...checks.flatMap((c) => c.tags)])];
  const normalise = (flag: string, names: readonly string[] | undefined): string[] => {
    const given = (names ?? []).map((n) => n.trim()).filter((n) => n !== '');
    // Named as the user typed them, so the message points at what is on their command line.
    const unknown = given.filter((n) => !known.includes(n.toLowerCase()));
    if (unknown.length > 0) {
      const named = unknown.map((name) => {
        const near = suggestionFor(name, known);
        return near === undefined ? name : `${name} (did you mean ${ids.get(near) ?? near}?)`;
      });
      throw new InputError(
        `${flag}: unknown check ID or tag: ${named.join(', ')}; harness conformance --list names them all`,
      );
    }
    return given.map((n) => n.toLowerCase());
  };
  const only = normalise('--only', options.only);
  const skip = normalise('--skip', options.skip);
  return checks.map((check) => {
    if (only.length > 0 && !matches(check, only)) return { check, excluded: '--only', deselected: true };
    if (matches(check, skip)) return { check, excluded: '--skip', deselected: true };
    if (check.slow && !options.slow) {
      return {
        check,
        excluded: 'needs --slow: it waits out the token lifetime (3600 s against a real target)',
      };
    }
    return { check };
  });
};
