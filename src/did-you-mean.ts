// "Did you mean": the known name nearest a mistyped one, for every input harness names (check IDs and tags, faults,
// limiters, profile fields). fastest-levenshtein does the edit distance.
import { closest, distance } from 'fastest-levenshtein';

/** A typo is a few letters off; a name further from every known one than a third of its length is no typo. */
export const suggestionFor = (name: string, known: readonly string[]): string | undefined => {
  if (known.length === 0) return undefined;
  const nearest = closest(name.toLowerCase(), [...known]);
  return distance(name.toLowerCase(), nearest.toLowerCase()) <= Math.max(2, Math.floor(name.length / 3))
    ? nearest
    : undefined;
};

/** ` (did you mean NAME?)`, or nothing when no known name is near. */
export const didYouMean = (name: string, known: readonly string[]): string => {
  const nearest = suggestionFor(name, known);
  return nearest === undefined ? '' : ` (did you mean ${nearest}?)`;
};
