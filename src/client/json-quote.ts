// A value from a target's parsed answer, as a check's message quotes it. JSON.stringify recurses once per level and
// overflows the stack on a value about 5,000 levels deep, which a target sends in 10 KB: the check that quoted it
// became a harness ERROR, and exit 4 hid the run's real FAILs. This walk keeps its own stack, and stops at a depth
// no SPEC.md answer comes near, so a message stays readable however deep the answer. (JSON.parse itself is
// iterative in V8 and parses such a body; only what walks the parsed value afterwards must take care.)

/** SPEC.md's answers are objects of strings and numbers, a level or two deep: deeper, a quote shows `[…]` or `{…}`. */
export const QUOTE_DEPTH = 8;

/** What is left to write, last first: text as it is, or a value at its depth. */
type Work = string | { readonly value: unknown; readonly depth: number };

/** A primitive as JSON.stringify writes it; `undefined` (a field the answer lacks) as the word. */
const primitive = (value: unknown): string => {
  if (value === undefined) return 'undefined';
  const json = JSON.stringify(value) as string | undefined;
  return json ?? String(value);
};

/**
 * `value` (from JSON.parse) as JSON, but with every array or object `maxDepth` levels down shown as `[…]` or `{…}`.
 * Strings are quoted whole, so a secret in one is redacted as a whole when the report is.
 */
export const quoteJson = (value: unknown, maxDepth = QUOTE_DEPTH): string => {
  const work: Work[] = [{ value, depth: 0 }];
  let out = '';
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if (typeof item === 'string') {
      out += item;
      continue;
    }
    const { value: node, depth } = item;
    if (node === null || typeof node !== 'object') {
      out += primitive(node);
      continue;
    }
    const array = Array.isArray(node);
    if (depth >= maxDepth) {
      out += array ? '[…]' : '{…}';
      continue;
    }
    const entries: [string | undefined, unknown][] = array
      ? node.map((element) => [undefined, element])
      : Object.entries(node);
    out += array ? '[' : '{';
    work.push(array ? ']' : '}');
    // Pushed last first, so they are written in order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, element] = entries[i]!;
      work.push({ value: element, depth: depth + 1 });
      if (key !== undefined) work.push(`${JSON.stringify(key)}:`);
      if (i > 0) work.push(',');
    }
  }
  return out;
};
