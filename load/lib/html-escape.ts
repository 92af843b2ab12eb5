// Text for HTML, shared by the load report and anything else k6 may run (so no Node-only imports): the five
// characters HTML gives meaning escaped, and control characters dropped, since a server's answer or a profile value
// may carry them and HTML has no way to show them (a NUL or an ESC sequence would at best render as garbage).

/** C0 controls except tab, line feed and carriage return; DEL; C1 controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string =>
  text.replace(CONTROL, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
