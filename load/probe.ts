// The rate-limit probe, run by `harness load`: every phase of the selected scenarios (see lib/plan.ts) is a k6
// arrival-rate scenario calling probe(); handleSummary writes harness's JSON and HTML summaries.
import exec from 'k6/execution';
import http from 'k6/http';
import { phaseNamed, phases, target } from './lib/config.ts';
import { optionsFor } from './lib/options.ts';
import { atPointer } from './lib/pointer.ts';
import { summaryHtml } from './lib/report-html.ts';
import { call, type Ids, probeRequest } from './lib/request.ts';
import { loadSummary, summaryText } from './lib/summary.ts';

const instances = Number(__ENV.HARNESS_INSTANCES ?? '1');

export const options = optionsFor(phases, instances);

// 429 is the answer a probe is after, not an HTTP failure.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

/** Path ids the probed endpoints need, from the profile: a fixed value, or the response of the endpoint it names. */
export function setup(): { ids: Ids } {
  const needed = new Set(
    phases.flatMap((p) => p.endpoints.flatMap((key) => [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))),
  );
  const ids: Record<string, string> = {};
  for (const name of needed) {
    const source = target.ids?.[name];
    if (source?.value !== undefined) {
      ids[name] = source.value;
      continue;
    }
    if (source?.from === undefined)
      throw new Error(`the profile does not say where ${name} comes from (ids.${name})`);
    const res = call(source.from, 'primary', {}, { name: 'setup: path id' });
    const node = atPointer(res.json(), source.pointer ?? '');
    if (typeof node !== 'string' && typeof node !== 'number')
      throw new Error(`${source.from} answered ${res.status} without ${name}`);
    ids[name] = String(node);
  }
  // Only ids: setup's return value lands in every summary, so no token or secret may be in it.
  return { ids };
}

export function probe(data: { ids: Ids }): void {
  probeRequest(phaseNamed(exec.scenario.name), data.ids);
}

export function handleSummary(data: Parameters<typeof loadSummary>[0]): Record<string, string> {
  const summary = loadSummary(data, instances);
  const files: Record<string, string> = { stdout: summaryText(summary) };
  if (__ENV.HARNESS_SUMMARY_JSON) files[__ENV.HARNESS_SUMMARY_JSON] = `${JSON.stringify(summary, null, 2)}\n`;
  if (__ENV.HARNESS_SUMMARY_HTML) files[__ENV.HARNESS_SUMMARY_HTML] = summaryHtml(summary);
  return files;
}
