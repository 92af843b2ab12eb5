// The XML writers' view of the shared escaper (core/markup.ts, which the HTML reports use through its template).
import { escapeMarkup, stripControl } from '../../core/markup.ts';

export const stripIllegal = stripControl;

/** Safe in element text and in quoted attribute values of both XML and HTML. */
export const escapeText = escapeMarkup;

/** XML attribute value normalisation would turn tab/LF/CR into spaces; references keep them. */
export const escapeAttr = (text: string): string =>
  escapeText(text).replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
