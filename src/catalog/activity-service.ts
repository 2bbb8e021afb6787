import type { ActivityStore, ClickRecord, SearchRecord } from '../store/types.js';

export interface ActivityOptions {
  /** Longest a recorded search or click waits in memory before it is written (ms). */
  flushMs?: number;
  /** Rows that trigger a write at once. */
  batchRows?: number;
  /** Rows kept for a retry while the store refuses writes; past this the oldest are dropped (and reported). */
  maxHeld?: number;
}

/**
 * Records searches and clicks without a write per request: rows wait in memory and are written in
 * one transaction per kind, within `flushMs` or at `batchRows`. On a store that refuses writes
 * they are kept (up to `maxHeld`) and tried again. A process killed outright loses at most the
 * last `flushMs` of activity; a graceful stop (`close`) writes everything held. Reads write what
 * is held first, so this process always reads its own activity.
 */
export class ActivityService {
  private searchRows: SearchRecord[] = [];
  private clickRows: ClickRecord[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushMs: number;
  private readonly batchRows: number;
  private readonly maxHeld: number;
  private failed: ((err: Error, dropped: number) => void) | null = null;
  /** The last write was refused: wait for the timer, not for the batch to fill (no retry per request). */
  private refused = false;

  constructor(private readonly store: ActivityStore, opts: ActivityOptions = {}) {
    this.flushMs = opts.flushMs ?? 1000;
    this.batchRows = opts.batchRows ?? 1000;
    this.maxHeld = opts.maxHeld ?? 50_000;
  }

  /** Told of every write the store refused, and how many rows were dropped for it (0 while they fit). */
  onWriteError(listener: (err: Error, dropped: number) => void): void {
    this.failed = listener;
  }

  recordSearch(row: SearchRecord): void {
    this.searchRows.push(row);
    this.schedule();
  }

  recordClick(row: ClickRecord): void {
    this.clickRows.push(row);
    this.schedule();
  }

  /** Writes everything recorded so far; resolves when it is stored (or kept for a retry). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
  }

  async searches(since: string, opts: { jobId?: string; limit: number }): Promise<SearchRecord[]> {
    await this.flush();
    return this.store.searches(since, opts);
  }

  async clicksFor(listingId: number, since: string, limit: number): Promise<ClickRecord[]> {
    await this.flush();
    return this.store.clicksFor(listingId, since, limit);
  }

  async clickCounts(listingIds: number[], since: string): Promise<Map<number, number>> {
    await this.flush();
    return this.store.clickCounts(listingIds, since);
  }

  private schedule(): void {
    if (!this.refused && this.searchRows.length + this.clickRows.length >= this.batchRows) {
      void this.flush();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.flushMs);
    this.timer.unref?.();
  }

  private async write(): Promise<void> {
    const searches = this.searchRows;
    const clicks = this.clickRows;
    this.searchRows = [];
    this.clickRows = [];
    this.refused = false;
    try {
      await this.store.recordSearches(searches);
    } catch (err) {
      this.refused = true;
      this.searchRows = this.keep(searches, this.searchRows, err as Error);
    }
    try {
      await this.store.recordClicks(clicks);
    } catch (err) {
      this.refused = true;
      this.clickRows = this.keep(clicks, this.clickRows, err as Error);
    }
    if (this.searchRows.length + this.clickRows.length) this.schedule();
  }

  /** The refused rows back in front of what arrived meanwhile, the oldest dropped past `maxHeld`. */
  private keep<T>(refused: T[], arrived: T[], err: Error): T[] {
    const all = refused.concat(arrived);
    const dropped = Math.max(0, all.length - this.maxHeld);
    this.failed?.(err, dropped);
    return dropped ? all.slice(dropped) : all;
  }
}
