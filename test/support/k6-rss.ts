// The peak resident set of the k6 processes of one run, sampled from /proc every 100 ms: what a hostile answer costs
// k6. Only the k6 processes whose command line names `dir` (the run's report folder: every runner writes its
// checkpoint there; '' names any), so other runs on a shared machine are not counted. A k6 past `killAboveKb` is killed, so a run
// that decodes bombs cannot take the machine with it.
import { readdirSync, readFileSync } from 'node:fs';

export interface K6Memory<T> {
  readonly result: T;
  readonly peakKb: number;
  /** Whether a k6 went past the limit and was killed. */
  readonly killed: boolean;
}

const k6Processes = (dir: string): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return cmdline.includes('k6\0run\0') && cmdline.includes(dir);
      } catch {
        return false;
      }
    });

const rssKb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    // The process ended between listing and reading.
    return 0;
  }
};

export const peakK6Rss = async <T>(
  dir: string,
  during: Promise<T>,
  killAboveKb = Number.POSITIVE_INFINITY,
): Promise<K6Memory<T>> => {
  let peakKb = 0;
  let killed = false;
  const sample = setInterval(() => {
    for (const pid of k6Processes(dir)) {
      const kb = rssKb(pid);
      peakKb = Math.max(peakKb, kb);
      if (kb > killAboveKb) {
        killed = true;
        process.kill(pid, 'SIGKILL');
      }
    }
  }, 100);
  try {
    return { result: await during, peakKb, killed };
  } finally {
    clearInterval(sample);
  }
};
