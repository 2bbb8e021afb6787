import { randomUUID } from 'node:crypto';
import { evaluate, type AlertRecord } from '../domain/alerts.js';
import type { CatalogEvent } from '../domain/events.js';
import type { RateTable } from '../domain/fx.js';
import type { AlertStore, EventLogStore } from '../store/types.js';
import { CoalescedPasses } from './coalesced.js';

/** Changes read per pass: one read of the alerts on their listings, one transaction for what they fired. */
const BATCH = 1000;
/** How often a started evaluator looks without a wake-up (a pass the store refused as busy). */
const POLL_MS = 1000;

/**
 * Evaluates alerts on the catalog's changes as the ingest path logs them (price_change,
 * stock_change), never by polling listings: from the position the store keeps, a batch of
 * changes is read, the alerts that may fire on its listings are read in one indexed lookup, the
 * pure rules (domain/alerts.ts) decide, and the firings (history rows and alert_fired events in
 * the log, which the streams and the webhook dispatcher then carry) are written with the alerts'
 * new states in the transaction that moves the position. Like the webhook dispatcher, every
 * instance may run one: a pass that finds the position moved by another writes nothing.
 */
export class AlertEvaluator {
  private readonly passes = new CoalescedPasses(() => this.pass());
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: AlertStore,
    private readonly log: EventLogStore,
    private readonly rates: () => RateTable,
    private readonly now: () => Date,
    /** Called after a pass appended firings (wake the event tail so streams see them now). */
    private readonly onFired: () => void = () => undefined,
  ) {}

  /**
   * Follows the log from now on: `serve` starts it (one-shot CLI commands do not; their changes are
   * in the log and are evaluated by a server). The event tail wakes it; the timer retries a pass
   * that found the store busy.
   */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  /** A pass now, when started; a failure (a store away for a moment) waits for the next tick. */
  wake(): void {
    if (this.timer) void this.run().catch(() => undefined);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Evaluates every change not yet evaluated; resolves to how many alerts fired. Concurrent calls share one pass (and one more after it). */
  run(): Promise<number> {
    return this.passes.run();
  }

  private async pass(): Promise<number> {
    let fired = 0;
    for (;;) {
      const from = await this.store.evaluationPosition();
      const head = await this.log.lastId();
      const events = await this.log.readAfter(from, BATCH, ['price_change', 'stock_change']);
      // Fewer than a batch: every change up to `head` was read, so the position may pass the
      // product updates and alert firings after the last change too.
      const to = events.length === BATCH ? events[BATCH - 1].id : Math.max(head, events[events.length - 1]?.id ?? from);
      if (to === from) return fired;
      const evaluation = events.length
        ? evaluate(events, await this.pendingByListing(events), this.rates(), randomUUID)
        : { firings: [], updates: [] };
      if (!(await this.store.apply(from, to, evaluation, this.now().toISOString()))) {
        // Another evaluator moved the position first, or the store was busy: read again, or wait for the next wake-up.
        if ((await this.store.evaluationPosition()) === from) return fired;
        continue;
      }
      fired += evaluation.firings.length;
      if (evaluation.firings.length) this.onFired();
      if (events.length < BATCH) return fired;
    }
  }

  /** The alerts that may fire on the batch's listings, by listing: one read for the batch. */
  private async pendingByListing(events: readonly CatalogEvent[]): Promise<Map<number, AlertRecord[]>> {
    const ids = [...new Set(events.map((e) => e.listingId))];
    // Loaded as of the batch's first change: an alert expiring during the batch still sees the changes before its expiry.
    let first = events[0].createdAt;
    for (const e of events) if (e.createdAt < first) first = e.createdAt;
    const alerts = await this.store.pendingFor(ids, first);
    const byListing = new Map<number, AlertRecord[]>();
    for (const a of alerts) {
      const list = byListing.get(a.listingId);
      if (list) list.push(a);
      else byListing.set(a.listingId, [a]);
    }
    return byListing;
  }
}
