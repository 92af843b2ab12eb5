// How a runner's summary comes back from a pod without a shared volume: with HARNESS_SUMMARY_STDOUT=markers, k6
// prints it on stdout as one line of JSON between two marker lines, and `harness load merge --from-logs` finds every
// such block in `kubectl logs` output (several pods' logs in one file, `--prefix`ed or not, k6's own log lines
// between). Pure TypeScript: the k6 side writes the block, the CLI reads it.

export const SUMMARY_STDOUT_MARKERS = 'markers';
const BEGIN = '----- harness runner summary begin -----';
const END = '----- harness runner summary end -----';

/** The block k6 prints: the markers on lines of their own, the JSON on one line between. */
export const markedSummary = (summary: unknown): string => `${BEGIN}\n${JSON.stringify(summary)}\n${END}\n`;

export interface LoggedSummary {
  /** `FILE line N`, and the pod and container when kubectl logs --prefix named them. */
  readonly source: string;
  /** The block's JSON text, or undefined when the block was cut off (the log ended, or another block began). */
  readonly json: string | undefined;
}

/** k6's own log lines (`time="..." level=...`) may fall inside a block: they are never part of the JSON. */
const K6_LOG_LINE = /^time="[^"]*" level=/;

/** The text before a marker on its line (kubectl's `--prefix`, `[pod/name/container] `), or undefined without one. */
const before = (line: string, marker: string): string | undefined => {
  const at = line.indexOf(marker);
  return at < 0 ? undefined : line.slice(0, at);
};

/** Every summary block in one log file, in order; a truncated block is named, not dropped. */
export const summariesInLogs = (text: string, file: string): LoggedSummary[] => {
  const found: LoggedSummary[] = [];
  // Open blocks by prefix: the prefix tells interleaved pods apart.
  const open = new Map<string, { source: string; lines: string[] }>();
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    const begins = before(line, BEGIN);
    const ends = before(line, END);
    if (begins !== undefined) {
      const cut = open.get(begins);
      if (cut) found.push({ source: cut.source, json: undefined });
      const pod = begins.trim();
      open.set(begins, { source: `${file} line ${index + 1}${pod ? ` ${pod}` : ''}`, lines: [] });
    } else if (ends !== undefined && open.has(ends)) {
      found.push({ source: open.get(ends)!.source, json: open.get(ends)!.lines.join('') });
      open.delete(ends);
    } else {
      for (const [prefix, block] of open) {
        if (!line.startsWith(prefix)) continue;
        const content = line.slice(prefix.length);
        if (!K6_LOG_LINE.test(content)) block.lines.push(content);
        break;
      }
    }
  });
  for (const block of open.values()) found.push({ source: block.source, json: undefined });
  return found;
};
