// Escaping shared by the XML and HTML writers. Messages and evidence bodies come from the server under test, so
// they may hold anything: markup, quotes, NUL bytes, lone surrogates.

/** Characters XML 1.0 forbids even as references (C0 controls but tab/LF/CR, surrogates, U+FFFE/U+FFFF). */
const ILLEGAL = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const stripIllegal = (text: string): string => text.replace(ILLEGAL, '');

/** Safe in element text and in quoted attribute values of both XML and HTML. */
export const escapeText = (text: string): string =>
  stripIllegal(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** Attribute value normalisation would turn tab/LF/CR into spaces; references keep them. */
export const escapeAttr = (text: string): string =>
  escapeText(text).replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
