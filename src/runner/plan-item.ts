// A plan's unit, below both the check types that declare plans and the budget that sets them aside: held in types.ts,
// it closed an import cycle (types -> context -> session -> budget -> types).

/** Requests a check (or the probe it shares) will send; `key` dedups shared work across checks. */
export interface PlanItem {
  readonly key: string;
  readonly endpoint: string;
  readonly requests: number;
  /** Extra requests the check may send to confirm a result (a retry after Retry-After, a repeated probe). */
  readonly margin: number;
  /** Sent by a bucket's probe, which publishes admitted responses (path ids come from them). */
  readonly probe?: boolean;
}
