// A load target written into a file that must hold no secret (the k6-operator's ConfigMap): every secret value in
// it (a credential header, a value the profile took from ${VAR}; the client secrets travel apart) becomes a marker,
// and the value goes in the Secret, under a key no client role is spelt as. The runner puts the values back from
// the Secret it reads them from. Pure, so the CLI seals and the k6 script unseals with the same markers.

/** Brackets no profile value plausibly holds, and no control character, which JSON and YAML tools may mangle. */
const marker = (index: number) => `⟦harness-secret-${index}⟧`;

/** The key of the `index`th sealed value beside the roles' client secrets. */
export const sealedKey = (index: number) => `#${index}`;

const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** `document` with each string mapped; the target is a parsed profile a few levels deep, never a target's answer. */
const mapStrings = (document: unknown, map: (text: string, pointer: string) => string, at = ''): unknown => {
  if (typeof document === 'string') return map(document, at);
  if (Array.isArray(document)) return document.map((item, i) => mapStrings(item, map, `${at}/${i}`));
  if (document === null || typeof document !== 'object') return document;
  return Object.fromEntries(
    Object.entries(document).map(([key, value]) => [
      key,
      mapStrings(value, map, `${at}/${escapePointer(key)}`),
    ]),
  );
};

export interface Sealed<T> {
  readonly target: T;
  /** Each value sealed, by its key in the Secret: where in the target it was first found (a JSON Pointer). */
  readonly found: ReadonlyMap<string, string>;
}

/** `target` with every occurrence of each of `values` replaced by its marker (longest first, so none splits another). */
export const sealTarget = <T>(target: T, values: readonly string[]): Sealed<T> => {
  const ordered = [...new Set(values)].filter((v) => v !== '').sort((a, b) => b.length - a.length);
  const found = new Map<string, string>();
  const sealed = mapStrings(target, (text, pointer) => {
    let out = text;
    ordered.forEach((value, i) => {
      const parts = out.split(value);
      if (parts.length === 1) return;
      if (!found.has(sealedKey(i + 1))) found.set(sealedKey(i + 1), pointer);
      out = parts.join(marker(i + 1));
    });
    return out;
  }) as T;
  // Only the values the target holds: the Secret asks the user for no other.
  return { target: sealed, found };
};

/** `target` with each marker replaced by its value from `secrets` (the Secret's record); unchanged where none. */
export const unsealTarget = <T>(target: T, secrets: Readonly<Record<string, string>>): T =>
  mapStrings(target, (text) => {
    if (!text.includes('⟦harness-secret-')) return text;
    return text.replace(/⟦harness-secret-(\d+)⟧/g, (_marker, index: string) => {
      const value = secrets[sealedKey(Number(index))];
      if (value === undefined) throw new Error(`the Secret has no value for ${sealedKey(Number(index))}`);
      return value;
    });
  }) as T;
