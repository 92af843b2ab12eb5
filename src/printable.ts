// Text from a file harness did not write (a name in an archive, a field of a summary) put on a terminal: a control
// character there can move the cursor, clear the screen or rewrite an earlier line (ANSI escapes), and a
// bidirectional override (U+202E) can show `txt.exe` as `exe.txt`, so the reader sees something other than the bytes.

/**
 * C0 and C1 controls and DEL; the bidirectional marks, embeddings, overrides and isolates (Unicode's
 * Bidi_Control); the line and paragraph separators, which some viewers break lines at.
 */
const UNPRINTABLE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

/** `text` with each such character written as its `\uXXXX` escape, everything else as it is. */
export const printable = (text: string): string =>
  text.replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
