// The JSON Schema of a LoadSummary (evidence.ts), for summaries harness reads back from files it did not just write
// (`harness load merge`): a summary is evidence only when every count in it is one k6 could have recorded. The
// schema sits beside the interfaces rather than replacing them (k6 builds summaries from those, with their docs);
// the Assert at the end stops the build the moment the two describe different JSON. What a schema cannot say (a
// count against another) is `impossibleCount`, below.
import type { FromSchema } from 'json-schema-to-ts';
import type { LoadSummary, PhaseResult, UnreadTokenAnswer } from '../../core/evidence.ts';
import { UNREAD_BITS } from '../../core/phase-results.ts';
import type { Assert, SameShape } from '../same-shape.ts';

const count = { type: 'integer', minimum: 0 } as const;
/** Why harness's token reader left an answer unread: the reasons a phase records a bit for (core/phase-results.ts). */
const UNREAD_TOKEN_ANSWERS = Object.keys(UNREAD_BITS) as readonly UnreadTokenAnswer[];
const counts = { type: 'array', items: count } as const;
const ms = { type: 'number', minimum: 0 } as const;
const text = { type: 'string' } as const;
const range = {
  type: 'object',
  additionalProperties: false,
  required: ['min', 'max'],
  properties: { min: count, max: count },
} as const;

const phasePlan = {
  type: 'object',
  additionalProperties: false,
  required: [
    'name',
    'probe',
    'phase',
    'bucket',
    'limiterKey',
    'endpoints',
    'clients',
    'limit',
    'fromPerWindow',
    'offeredPerWindow',
    'rampMs',
    'startMs',
    'durationMs',
    'slotMs',
  ],
  properties: {
    name: { type: 'string', minLength: 1 },
    probe: text,
    phase: { type: 'string', enum: ['within', 'over', 'knee'] },
    bucket: text,
    limiterKey: text,
    endpoints: { type: 'array', items: text },
    clients: { type: 'array', items: text, minItems: 1 },
    limit: {
      type: 'object',
      additionalProperties: false,
      required: ['count', 'per', 'windowMs'],
      // The verdicts divide by both.
      properties: {
        count: { type: 'number', exclusiveMinimum: 0 },
        per: { type: 'string', enum: ['second', 'minute'] },
        windowMs: { type: 'number', exclusiveMinimum: 0 },
      },
    },
    fromPerWindow: ms,
    offeredPerWindow: ms,
    rampMs: ms,
    startMs: ms,
    durationMs: { type: 'number', exclusiveMinimum: 0 },
    slotMs: { type: 'number', exclusiveMinimum: 0 },
  },
} as const;

const phaseResult = {
  type: 'object',
  additionalProperties: false,
  required: [
    'plan',
    'offered',
    'admitted',
    'limited',
    'refused',
    'networkErrors',
    'renewed',
    'noToken',
    'dropped',
    'unslotted',
    'startLagMs',
    'slots',
  ],
  properties: {
    plan: phasePlan,
    offered: count,
    admitted: count,
    limited: count,
    refused: count,
    networkErrors: count,
    renewed: count,
    // Present only when a token request failed (load/lib/summary.ts).
    tokenFailures: {
      type: 'object',
      additionalProperties: false,
      required: ['count', 'minStatus', 'maxStatus'],
      properties: {
        count: { type: 'integer', minimum: 1 },
        minStatus: count,
        maxStatus: count,
        unread: {
          type: 'array',
          items: { type: 'string', enum: UNREAD_TOKEN_ANSWERS },
          minItems: 1,
          uniqueItems: true,
        },
      },
    },
    noToken: count,
    dropped: count,
    unslotted: count,
    retryAfterValid: { type: 'number', minimum: 0, maximum: 1 },
    retryAfterMax: ms,
    roundTrips: {
      type: 'object',
      additionalProperties: false,
      required: ['minMs', 'p99Ms', 'maxMs'],
      properties: { minMs: ms, p99Ms: ms, maxMs: ms },
    },
    startLagMs: {
      type: 'object',
      additionalProperties: false,
      required: ['p99', 'max'],
      properties: { p99: ms, max: ms },
    },
    latencyMs: {
      type: 'object',
      additionalProperties: false,
      required: ['p50Ms', 'p95Ms', 'p99Ms'],
      properties: { p50Ms: ms, p95Ms: ms, p99Ms: ms },
    },
    rateLimit: {
      type: 'object',
      additionalProperties: false,
      required: ['dialects'],
      properties: {
        dialects: { type: 'integer', minimum: 1 },
        quota: range,
        windowSeconds: range,
        remainingOnLimitedMax: count,
      },
    },
    slots: {
      type: 'object',
      additionalProperties: false,
      required: ['admitted', 'limited', 'admittedMaxRttMs', 'limitedMinRttMs'],
      properties: {
        admitted: counts,
        limited: counts,
        admittedMaxRttMs: { type: 'array', items: ms },
        limitedMinRttMs: { type: 'array', items: ms },
      },
    },
  },
} as const;

const offsetBounds = {
  type: 'object',
  additionalProperties: false,
  required: ['lo', 'hi'],
  // A clock may run either side of the target's, and contradicting bounds (lo > hi) are evidence too (clocks.ts).
  properties: { lo: { type: 'number' }, hi: { type: 'number' } },
} as const;

const runnerProperties = {
  runId: text,
  planDigest: text,
  segment: text,
  sequence: text,
  startAt: ms,
  setupCompleted: { type: 'boolean' },
  harnessVersion: text,
  k6Version: text,
  clock: {
    type: 'object',
    additionalProperties: false,
    required: ['host'],
    properties: { host: text, offsetMs: offsetBounds },
  },
} as const;
const runnerRequired = [
  'runId',
  'planDigest',
  'segment',
  'sequence',
  'startAt',
  'setupCompleted',
  'harnessVersion',
  'k6Version',
] as const;

export const loadSummarySchema = {
  $id: 'https://harness.invalid/schemas/load-summary.json',
  type: 'object',
  additionalProperties: false,
  required: ['target', 'generatedAt', 'instances', 'lateMs', 'preflightRequests', 'phases'],
  properties: {
    target: text,
    generatedAt: text,
    instances: { type: 'integer', minimum: 1 },
    lateMs: { type: 'array', items: ms },
    startSpread: {
      type: 'object',
      additionalProperties: false,
      required: ['why'],
      properties: { ms, why: text },
    },
    preflightRequests: { type: 'object', additionalProperties: count },
    setupTokenRequests: count,
    phases: { type: 'array', items: phaseResult },
    interrupted: {
      type: 'object',
      additionalProperties: false,
      required: ['reason', 'atMs'],
      properties: { reason: text, atMs: ms },
    },
    runner: {
      type: 'object',
      additionalProperties: false,
      required: runnerRequired,
      properties: runnerProperties,
    },
    runners: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [...runnerRequired, 'source'],
        properties: { ...runnerProperties, source: text },
      },
    },
    runnerProblems: { type: 'array', items: text },
  },
} as const;

/** @public A compile-time check, never imported: the schema and LoadSummary describe the same shape. */
export type _SchemaIsLoadSummary = Assert<SameShape<LoadSummary, FromSchema<typeof loadSummarySchema>>>;

/** Each count that is part of the iterations k6 offered: none can exceed them. */
const PARTS_OF_OFFERED = ['admitted', 'limited', 'refused', 'networkErrors', 'noToken', 'dropped'] as const;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Where a phase's counts contradict each other (a JSON pointer and why), or undefined. Only what k6 cannot record
 * is refused: each outcome against the iterations offered (not their sum, since an iteration k6 interrupts after
 * its answer was counted leaves `iterations`), and the slots' counts against the phase's, of which they are the
 * requests sent in time to fit a slot.
 */
export const impossibleCount = (phase: PhaseResult, at: string): string | undefined => {
  for (const part of PARTS_OF_OFFERED) {
    if (phase[part] > phase.offered)
      return `${at}/${part}: ${phase[part]}, more than the ${phase.offered} requests offered`;
  }
  const { slots } = phase;
  const lengths = new Set(Object.values(slots).map((values) => values.length));
  if (lengths.size > 1) return `${at}/slots: its four lists differ in length (one entry a slot each)`;
  for (const part of ['admitted', 'limited'] as const) {
    const inSlots = sum(slots[part]);
    if (inSlots > phase[part])
      return `${at}/slots/${part}: ${inSlots} in all, more than the phase's ${phase[part]} ${part}`;
  }
  return undefined;
};

/**
 * The most slots a summary's phases may span, counted from the plan's start (timeline.ts lays each phase out from
 * slot 0 to its last, four lists of them): `--scenario all` spans 10,540 slots, with `--duration 10m` 1.2 to 1.6
 * million, with `--duration 1h` 6.9 million. A forged start of 10^12 ms asked for an array no engine can make.
 */
export const MAX_SLOT_GRID = 8_000_000;

/** Where the phases, laid out from the plan's start, would span more than MAX_SLOT_GRID slots, or undefined. */
export const gridTooLarge = (phases: readonly PhaseResult[]): string | undefined => {
  let slots = 0;
  for (const [i, { plan, slots: evidence }] of phases.entries()) {
    slots += Math.round(plan.startMs / plan.slotMs) + evidence.admitted.length;
    if (slots > MAX_SLOT_GRID)
      return `/phases/${i}/plan/startMs: ${plan.startMs} ms into the plan at ${plan.slotMs} ms a slot, the phases span over ${MAX_SLOT_GRID} slots, far more than any plan harness makes`;
  }
  return undefined;
};
