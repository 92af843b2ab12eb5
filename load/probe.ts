// The rate-limit probe, run by `harness load`: every phase of the selected scenarios (see core/plan.ts) is a k6
// arrival-rate scenario calling probe(); handleSummary writes harness's JSON and HTML summaries and judges them.

import { sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { judge, reportJson } from '../core/judged.ts';
import { atPointer } from '../core/pointer.ts';
import { summaryHtml } from '../core/report-html.ts';
import { markedSummary } from '../core/summary-markers.ts';
import { k6VersionSent, tokenRequestsSent } from './lib/auth.ts';
import {
  instances,
  phaseIndex,
  phases,
  plan,
  prefetchedIds,
  roundTripMs,
  startAt,
  summaryOutputs,
} from './lib/config.ts';
import { startedAt } from './lib/metrics.ts';
import { optionsFor } from './lib/options.ts';
import { fetchFrom, type Ids, probeRequest, type SetupData } from './lib/request.ts';
import { fetchSetupTokens, openSetupTokens } from './lib/setup-tokens.ts';
import { loadSummary, shareText, summaryText } from './lib/summary.ts';

/** Room for setup(): path ids, then the wait for the common start. */
const SETUP_TIMEOUT_MS = 120_000;

// k6 reads the options once, from the runtime it starts first (__VU 0); every VU runs this module again, and
// thousands of per-slot thresholds built in each would multiply its start-up time.
export const options = __VU === 0 ? optionsFor(phases, roundTripMs, instances, SETUP_TIMEOUT_MS) : {};

// 429 is the answer a probe is after, not an HTTP failure.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

/** Path ids from the pre-flight, or fetched here when the script runs outside the CLI. */
const pathIds = (): Ids => {
  if (prefetchedIds) return prefetchedIds;
  const ids: Record<string, string> = { ...plan.preflight.fixedIds };
  for (const source of plan.preflight.idSources) {
    const res = fetchFrom(source.from, 'primary', {});
    if (res === undefined) throw new Error(`no token for primary, so no ${source.name} from ${source.from}`);
    const node = atPointer(res.json(), source.pointer);
    if (typeof node !== 'string' && typeof node !== 'number')
      throw new Error(`${source.from} answered ${res.status} without ${source.name}`);
    ids[source.name] = String(node);
  }
  return ids;
};

/** Tokens and ids, then a wait for the common start, so several instances run one schedule on one clock. */
export async function setup(): Promise<SetupData> {
  // Before the ids: their requests use these tokens.
  const tokens = await fetchSetupTokens();
  const ids = pathIds();
  const at = startAt;
  if (at > Date.now()) sleep((at - Date.now()) / 1000);
  const now = Date.now();
  startedAt.add(now);
  // setup's return value lands in every summary and on the runner's REST API: tokens only sealed, never a secret.
  return {
    ids,
    origin: instances > 1 ? at : now,
    lateMs: Math.max(0, now - at),
    ...(tokens === undefined ? {} : { tokens }),
    tokenRequests: tokenRequestsSent(),
    ...(k6VersionSent() === undefined ? {} : { k6Version: k6VersionSent() }),
  };
}

export async function probe(data: SetupData): Promise<void> {
  await openSetupTokens(data.tokens);
  probeRequest(phaseIndex(exec.scenario.name), data);
}

export function handleSummary(data: Parameters<typeof loadSummary>[0]): Record<string, string> {
  const summary = loadSummary(data, instances, plan);
  // Judged here only when this runner ran alone: an instance's share of several is judged once merged, by harness.
  const judged = instances > 1 ? undefined : judge(summary);
  // The CLI prints the verdicts itself, judged over every instance: k6's own copy would show them twice.
  const files: Record<string, string> =
    summaryOutputs.stdout === 'none' ? {} : { stdout: judged ? summaryText(judged) : shareText(summary) };
  // A pod with no shared volume hands its summary back through its log (core/summary-markers.ts).
  if (summaryOutputs.stdout === 'markers') files.stdout += markedSummary(summary);
  if (summaryOutputs.json)
    files[summaryOutputs.json] = judged ? reportJson(judged) : `${JSON.stringify(summary, null, 2)}\n`;
  // A share has no verdicts to show: its page is the merged run's, which harness writes.
  if (summaryOutputs.html && judged) files[summaryOutputs.html] = summaryHtml(judged);
  return files;
}
