// Path routing. Paths are matched as sent (no percent-decoding, no trailing-slash folding) and the query string
// is ignored; a template segment in braces matches any non-empty segment.
export interface Match<T> {
  readonly kind: 'match';
  readonly target: T;
  /** The value of the path's id segment, if its template has one. */
  readonly id: string | undefined;
}

export type Miss = { readonly kind: 'miss'; readonly status: 404 } | MethodNotAllowed;
interface MethodNotAllowed {
  readonly kind: 'miss';
  readonly status: 405;
  readonly allow: string;
}

interface Template<T> {
  readonly method: string;
  readonly segments: readonly (string | null)[];
  readonly target: T;
}

const NOT_FOUND: Miss = { kind: 'miss', status: 404 };

export class Router<T> {
  private readonly exact = new Map<string, Map<string, Match<T>>>();
  private readonly templates: Template<T>[] = [];

  add(method: string, path: string, target: T): this {
    if (!path.includes('{')) {
      let byMethod = this.exact.get(path);
      if (!byMethod) {
        byMethod = new Map();
        this.exact.set(path, byMethod);
      }
      byMethod.set(method, { kind: 'match', target, id: undefined });
      return this;
    }
    const segments = path.split('/').map((s) => (s.startsWith('{') && s.endsWith('}') ? null : s));
    this.templates.push({ method, segments, target });
    return this;
  }

  match(method: string, path: string): Match<T> | Miss {
    const byMethod = this.exact.get(path);
    const hit = byMethod?.get(method);
    if (hit) return hit;
    const allowed = byMethod ? [...byMethod.keys()] : [];
    const segments = path.split('/');
    for (const template of this.templates) {
      const id = matchSegments(template.segments, segments);
      if (id === undefined) continue;
      if (template.method === method) return { kind: 'match', target: template.target, id };
      allowed.push(template.method);
    }
    return allowed.length > 0
      ? { kind: 'miss', status: 405, allow: [...new Set(allowed)].join(', ') }
      : NOT_FOUND;
  }
}

/** The id segment's value when the path fits the template, otherwise undefined. */
const matchSegments = (template: readonly (string | null)[], path: readonly string[]): string | undefined => {
  if (template.length !== path.length) return undefined;
  let id: string | undefined;
  for (let i = 0; i < template.length; i++) {
    const expected = template[i];
    const actual = path[i]!;
    if (expected === null) {
      if (actual === '') return undefined;
      id ??= actual;
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return id;
};
