// --max-requests: a hard budget over every request a run sends, token requests included. Each check sets aside what
// its plan may send (retry margin included) before it starts, so a probe never stops half way; a check whose share
// does not fit is SKIPped without sending anything, and a request beyond every share is refused before it leaves.
import { AsyncLocalStorage } from 'node:async_hooks';
import { HarnessError } from '../errors.ts';
import type { PlanItem } from './plan-item.ts';

export class BudgetExhausted extends HarnessError {
  override readonly name = 'BudgetExhausted';
  constructor(readonly limit: number) {
    super('HARNESS_BUDGET', `request budget of ${limit} exhausted`);
  }
}

/** Requests still set aside, by endpoint (as PlanItem.endpoint names it). */
type Share = Map<string, number>;

export class RequestBudget {
  #sent: number;
  /** Set aside and not yet sent; `#sent + #setAside` never exceeds the limit. */
  #setAside = 0;
  /** Plan items already given a share: checks grading one probe set it aside once. */
  readonly #claimed = new Set<string>();
  readonly #current = new AsyncLocalStorage<Share>();
  readonly #runWide: Share = new Map();

  /** `sentBefore`: requests the command sent before the run (the reachability check). */
  constructor(
    readonly limit: number,
    sentBefore = 0,
  ) {
    this.#sent = sentBefore;
  }

  get sent(): number {
    return this.#sent;
  }

  /** Sets aside what the whole run shares (the token manager's requests), if it fits. */
  setAsideForRun(items: readonly PlanItem[]): void {
    const share = this.#claim(items);
    if (share === undefined) return;
    for (const [endpoint, n] of share) this.#runWide.set(endpoint, (this.#runWide.get(endpoint) ?? 0) + n);
  }

  /**
   * Runs `work` with what `items` may send set aside for it (and whatever it calls); throws BudgetExhausted without
   * running it when that does not fit. What it leaves unsent returns to the budget.
   */
  async within<T>(items: readonly PlanItem[], work: () => Promise<T>): Promise<T> {
    const share = this.#claim(items);
    if (share === undefined) throw new BudgetExhausted(this.limit);
    try {
      return await this.#current.run(share, work);
    } finally {
      for (const [endpoint, n] of share) {
        this.#setAside -= n;
        share.set(endpoint, 0);
      }
    }
  }

  /** Counts a request to `endpoint` about to leave: from the running check's share, the run's, or what is left. */
  spend(endpoint: string): void {
    for (const share of [this.#current.getStore(), this.#runWide]) {
      const left = share?.get(endpoint) ?? 0;
      if (left > 0) {
        share!.set(endpoint, left - 1);
        this.#setAside -= 1;
        this.#sent += 1;
        return;
      }
    }
    if (this.#sent + this.#setAside >= this.limit) throw new BudgetExhausted(this.limit);
    this.#sent += 1;
  }

  #claim(items: readonly PlanItem[]): Share | undefined {
    const fresh = items.filter((item) => !this.#claimed.has(item.key));
    const total = fresh.reduce((sum, item) => sum + item.requests + item.margin, 0);
    if (this.#sent + this.#setAside + total > this.limit) return undefined;
    this.#setAside += total;
    const share: Share = new Map();
    for (const item of fresh) {
      this.#claimed.add(item.key);
      share.set(item.endpoint, (share.get(item.endpoint) ?? 0) + item.requests + item.margin);
    }
    return share;
  }
}
