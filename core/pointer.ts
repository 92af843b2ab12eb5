// RFC 6901 JSON Pointer over a parsed document. Pure, so the k6 script (path ids in setup) and the conformance
// session (path ids from probes) read ids the same way.

/** The value at `pointer` ('' is the whole document), or undefined where the pointer leads nowhere. */
export const atPointer = (document: unknown, pointer: string): unknown => {
  let node = document;
  for (const raw of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
};
