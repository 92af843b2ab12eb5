// An Aho-Corasick automaton over reversed patterns: one right-to-left pass over a text tells, for every position,
// the longest pattern starting there, in time linear in the text whatever the patterns. Plain typed arrays and
// character comparisons: no pattern is ever turned into code or a regular expression.

/** `kind` of a node: no child, one child (the next node, `id + 1`), or several (looked up in `#branches`). */
const LEAF = 0;
const CHAIN = 1;
const BRANCH = 2;
const ROOT = 0;
const NONE = -1;
const ALPHABET = 0x10000;

/** The longest pattern starting at each position of a text: its length (0: none) and its id. */
export interface Matches {
  readonly length: Int32Array;
  readonly id: Int32Array;
}

/** An immutable automaton over a fixed set of patterns (UTF-16 code units, none empty). */
export class ReversedAutomaton {
  /** Code unit on the edge into each node. */
  readonly #unit: Uint16Array;
  readonly #kind: Uint8Array;
  readonly #fail: Int32Array;
  /** Index (in `#patterns`) of the longest pattern whose reverse ends at this node; NONE when none does. */
  readonly #best: Int32Array;
  /** Children of the root by code unit, so the busiest node needs no lookup. */
  readonly #rootChild = new Int32Array(ALPHABET).fill(NONE);
  /** Children of BRANCH nodes, keyed `node * ALPHABET + unit`; at most two per pattern. */
  readonly #branches = new Map<number, number>();
  readonly #patterns: readonly string[];
  readonly #ids: readonly number[];
  #size = 1;

  /** `ids[i]` is what a match of `patterns[i]` reports. */
  constructor(patterns: readonly string[], ids: readonly number[]) {
    this.#patterns = patterns;
    this.#ids = ids;
    const capacity = patterns.reduce((sum, p) => sum + p.length, 1);
    this.#unit = new Uint16Array(capacity);
    this.#kind = new Uint8Array(capacity);
    this.#fail = new Int32Array(capacity);
    this.#best = new Int32Array(capacity).fill(NONE);
    const children = new Map<number, number[]>();
    patterns.forEach((pattern, index) => {
      this.#insert(pattern, index, children);
    });
    this.#link(children);
  }

  /** Characters the patterns hold: what this automaton costs to build. */
  get size(): number {
    return this.#size - 1;
  }

  /**
   * Raises `into` wherever a pattern of this automaton starting at that position is longer than what it holds.
   * Returns the steps taken: at most twice the text's length (each step follows an edge or a failure link).
   */
  longestInto(text: string, into: Matches): number {
    let node = ROOT;
    let steps = 0;
    for (let at = text.length - 1; at >= 0; at--) {
      const unit = text.charCodeAt(at);
      let next = this.#child(node, unit);
      while (next === NONE && node !== ROOT) {
        node = this.#fail[node]!;
        next = this.#child(node, unit);
        steps++;
      }
      node = next === NONE ? ROOT : next;
      steps++;
      const best = this.#best[node]!;
      if (best !== NONE) {
        const length = this.#patterns[best]!.length;
        if (length > into.length[at]!) {
          into.length[at] = length;
          into.id[at] = this.#ids[best]!;
        }
      }
    }
    return steps;
  }

  #child(node: number, unit: number): number {
    if (node === ROOT) return this.#rootChild[unit]!;
    const kind = this.#kind[node];
    if (kind === CHAIN) return this.#unit[node + 1] === unit ? node + 1 : NONE;
    if (kind === BRANCH) return this.#branches.get(node * ALPHABET + unit) ?? NONE;
    return NONE;
  }

  #insert(pattern: string, index: number, children: Map<number, number[]>): void {
    let node = ROOT;
    let at = pattern.length - 1;
    for (let next = this.#child(node, pattern.charCodeAt(at)); at >= 0 && next !== NONE; ) {
      node = next;
      at--;
      if (at >= 0) next = this.#child(node, pattern.charCodeAt(at));
    }
    for (; at >= 0; at--) {
      const unit = pattern.charCodeAt(at);
      const child = this.#size++;
      this.#unit[child] = unit;
      this.#addEdge(node, unit, child, children);
      node = child;
    }
    if (this.#best[node] === NONE) this.#best[node] = index;
  }

  /** New nodes are numbered in order, so a node's first child is usually the next node: a CHAIN, no lookup. */
  #addEdge(parent: number, unit: number, child: number, children: Map<number, number[]>): void {
    if (parent === ROOT) {
      this.#rootChild[unit] = child;
      this.#childrenOf(ROOT, children).push(child);
      return;
    }
    const kind = this.#kind[parent];
    if (kind === LEAF && child === parent + 1) {
      this.#kind[parent] = CHAIN;
      return;
    }
    const siblings = this.#childrenOf(parent, children);
    if (kind === CHAIN) {
      this.#branches.set(parent * ALPHABET + this.#unit[parent + 1]!, parent + 1);
      siblings.push(parent + 1);
    }
    this.#kind[parent] = BRANCH;
    this.#branches.set(parent * ALPHABET + unit, child);
    siblings.push(child);
  }

  #childrenOf(node: number, children: Map<number, number[]>): number[] {
    const list = children.get(node) ?? [];
    if (list.length === 0) children.set(node, list);
    return list;
  }

  /** Breadth first, so a node's failure link (a shorter node) is complete before the node's own children. */
  #link(children: Map<number, number[]>): void {
    const queue = new Int32Array(this.#size);
    let head = 0;
    let tail = 0;
    for (const child of children.get(ROOT) ?? []) {
      this.#fail[child] = ROOT;
      queue[tail++] = child;
    }
    while (head < tail) {
      const node = queue[head++]!;
      const kind = this.#kind[node];
      if (kind === CHAIN) {
        this.#linkChild(node, node + 1);
        queue[tail++] = node + 1;
      } else if (kind === BRANCH) {
        for (const child of children.get(node)!) {
          this.#linkChild(node, child);
          queue[tail++] = child;
        }
      }
    }
  }

  /** The child's failure link is the longest proper suffix of its string that is a node too. */
  #linkChild(node: number, child: number): void {
    const unit = this.#unit[child]!;
    let fallback = this.#fail[node]!;
    let target = this.#child(fallback, unit);
    while (target === NONE && fallback !== ROOT) {
      fallback = this.#fail[fallback]!;
      target = this.#child(fallback, unit);
    }
    this.#fail[child] = target === NONE ? ROOT : target;
    if (this.#best[child] === NONE) this.#best[child] = this.#best[this.#fail[child]!]!;
  }
}
