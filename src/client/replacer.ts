// Replaces every occurrence of any of a growing set of strings, the longest wherever several start at one place, in
// time linear in the text however many strings it holds (docs/bounds.md). Strings are added one at a time while
// texts are scanned in between, so they are kept in a few automata of geometrically growing size (the "logarithmic
// method"): adding rebuilds only the small ones, and each string is rebuilt a logarithmic number of times in all.
import { type Matches, ReversedAutomaton } from './automaton.ts';

/** Automata smaller than this are merged whatever their sizes: scanning one more costs more than rebuilding them. */
const SMALLEST_LEVEL = 16 * 1024;

interface Level {
  readonly patterns: string[];
  readonly ids: number[];
  readonly automaton: ReversedAutomaton;
}

export class LongestMatchReplacer {
  readonly #levels: Level[] = [];
  readonly #replacements: string[] = [];
  #pending: { patterns: string[]; ids: number[] } = { patterns: [], ids: [] };
  #steps = 0;
  #longest = 0;

  /** Automaton steps taken by every scan so far: a measure of work that no machine load can disturb. */
  get steps(): number {
    return this.#steps;
  }

  /** How many automata the last scan ran: at most about log2 of the characters held. */
  get levels(): number {
    return this.#levels.length;
  }

  /** `pattern` must not be empty nor already held. Built into an automaton by the next scan, with the others added. */
  add(pattern: string, replacement: string): void {
    this.#pending.ids.push(this.#replacements.push(replacement) - 1);
    this.#pending.patterns.push(pattern);
    this.#longest = Math.max(this.#longest, pattern.length);
  }

  #build(): void {
    let { patterns, ids } = this.#pending;
    this.#pending = { patterns: [], ids: [] };
    let size = patterns.reduce((sum, p) => sum + p.length, 0);
    // Merging while the level below is no more than twice as large keeps sizes at least doubling downwards.
    for (let below = this.#levels.at(-1); below !== undefined; below = this.#levels.at(-1)) {
      if (below.automaton.size > 2 * size && below.automaton.size >= SMALLEST_LEVEL) break;
      this.#levels.pop();
      patterns = below.patterns.concat(patterns);
      ids = below.ids.concat(ids);
      size += below.automaton.size;
    }
    this.#levels.push({ patterns, ids, automaton: new ReversedAutomaton(patterns, ids) });
  }

  replace(text: string): string {
    return this.#replaced(text, text.length);
  }

  /**
   * What `replace(text)` makes of `text`'s first `keep` characters: a match starting among them is replaced whole,
   * however far it reaches, and nothing after them is kept. Only `keep` plus the longest pattern's length are
   * scanned: every match starting before `keep` ends within them, so a value straddling the cut is never shown in
   * part, and a long text costs no more than its kept start.
   */
  head(text: string, keep: number): string {
    return this.#replaced(text.slice(0, keep + this.#longest), keep);
  }

  #replaced(text: string, keep: number): string {
    if (text === '') return text;
    if (this.#pending.patterns.length > 0) this.#build();
    if (this.#levels.length === 0) return text.slice(0, keep);
    const matches: Matches = {
      length: new Int32Array(text.length),
      id: new Int32Array(text.length),
    };
    for (const level of this.#levels) this.#steps += level.automaton.longestInto(text, matches);
    let out = '';
    let copiedTo = 0;
    for (let at = 0; at < keep; ) {
      const length = matches.length[at]!;
      if (length === 0) {
        at++;
        continue;
      }
      out += text.slice(copiedTo, at) + this.#replacements[matches.id[at]!];
      at += length;
      copiedTo = at;
    }
    return copiedTo === 0 ? text.slice(0, keep) : out + text.slice(copiedTo, Math.max(copiedTo, keep));
  }
}
