// A deliberately strict, minimal XML parser for the tests: it throws on anything not well-formed in the subset the
// JUnit writer emits (declaration, elements, attributes, text, the five entities and numeric references), so a
// passing parse is a well-formedness check that needs no dependency.

export interface XmlElement {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*/;
const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const LEGAL = /^[\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

const decode = (raw: string): string => {
  if (/[<]/.test(raw)) throw new Error(`raw '<' in ${JSON.stringify(raw)}`);
  return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare '&' in ${JSON.stringify(raw)}`);
    const named = ENTITY[ref];
    if (named !== undefined) return named;
    const code = /^#x([0-9a-f]+)$/i.exec(ref)
      ? Number.parseInt(ref.slice(2), 16)
      : /^#\d+$/.test(ref)
        ? Number(ref.slice(1))
        : NaN;
    const char = Number.isNaN(code) ? undefined : String.fromCodePoint(code);
    if (char === undefined || !LEGAL.test(char)) throw new Error(`bad reference ${whole}`);
    return char;
  });
};

export const parseXml = (xml: string): XmlElement => {
  if (!LEGAL.test(xml)) throw new Error('character not allowed in XML 1.0');
  let rest = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const text = lt === -1 ? rest : rest.slice(0, lt);
    if (text !== '') {
      const top = stack.at(-1);
      if (top === undefined) {
        if (text.trim() !== '') throw new Error('text outside the root element');
      } else top.text += decode(text);
    }
    if (lt === -1) break;
    rest = rest.slice(lt);
    if (rest.startsWith('</')) {
      const m = /^<\/([^\s>]+)\s*>/.exec(rest);
      const open = stack.pop();
      if (m === null || open === undefined || m[1] !== open.name)
        throw new Error(`mismatched close at ${rest.slice(0, 40)}`);
      rest = rest.slice(m[0].length);
      continue;
    }
    const name = NAME.exec(rest.slice(1))?.[0];
    if (name === undefined) throw new Error(`bad tag at ${rest.slice(0, 40)}`);
    rest = rest.slice(1 + name.length);
    const element: XmlElement = { name, attrs: {}, children: [], text: '' };
    for (;;) {
      const attr = /^\s+([A-Za-z_][\w.:-]*)="([^"]*)"/.exec(rest);
      if (attr === null) break;
      if (attr[1]! in element.attrs) throw new Error(`duplicate attribute ${attr[1]}`);
      element.attrs[attr[1]!] = decode(attr[2]!);
      rest = rest.slice(attr[0].length);
    }
    const end = /^\s*(\/?)>/.exec(rest);
    if (end === null) throw new Error(`bad tag end at ${rest.slice(0, 40)}`);
    rest = rest.slice(end[0].length);
    const parent = stack.at(-1);
    if (parent !== undefined) parent.children.push(element);
    else if (root === undefined) root = element;
    else throw new Error('two root elements');
    if (end[1] !== '/') stack.push(element);
  }
  if (root === undefined || stack.length > 0) throw new Error('unclosed element');
  return root;
};

/** Descendants named `name`, depth first. */
export const all = (element: XmlElement, name: string): XmlElement[] =>
  element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...all(child, name)]);
