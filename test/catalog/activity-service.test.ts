import { describe, expect, it, vi } from 'vitest';
import { ActivityService } from '../../src/catalog/activity-service.js';
import type { ActivityStore, ClickRecord, SearchRecord } from '../../src/store/types.js';

/** A store that counts its writes and refuses them while `down`. */
class CountingStore implements ActivityStore {
  searchRows: SearchRecord[] = [];
  clickRows: ClickRecord[] = [];
  writes = 0;
  down = false;
  async recordSearches(rows: SearchRecord[]) {
    if (!rows.length) return;
    this.writes++;
    if (this.down) throw new Error('store down');
    this.searchRows.push(...rows);
  }
  async recordClicks(rows: ClickRecord[]) {
    if (!rows.length) return;
    this.writes++;
    if (this.down) throw new Error('store down');
    this.clickRows.push(...rows);
  }
  async searches() { return [...this.searchRows].reverse(); }
  async clicksFor(listingId: number) { return this.clickRows.filter((r) => r.listingId === listingId).reverse(); }
  async clickCounts() { return new Map<number, number>(); }
  async clickSecret(candidate: string) { return candidate; }
}

const search = (i: number): SearchRecord => ({ keyId: 1, jobId: null, query: `q${i}`, total: i, at: '2026-11-20T10:00:00.000Z' });
const click = (i: number): ClickRecord => ({ listingId: i, keyId: 1, jobId: null, at: '2026-11-20T10:00:00.000Z' });
const SINCE = '2000-01-01';

describe('ActivityService', () => {
  it('holds rows and writes them in one call per kind; reads write what is held first', async () => {
    const store = new CountingStore();
    const activity = new ActivityService(store, { flushMs: 60_000 });
    for (let i = 0; i < 10; i++) activity.recordSearch(search(i));
    activity.recordClick(click(1));
    expect(store.writes).toBe(0);
    expect(await activity.clicksFor(1, SINCE, 10)).toEqual([click(1)]);
    expect(store.writes).toBe(2);
    expect((await activity.searches(SINCE, { limit: 100 })).map((s) => s.query)).toEqual(Array.from({ length: 10 }, (_, i) => `q${9 - i}`));
    await activity.close();
  });

  it('a full batch is written at once; the timer writes the rest', async () => {
    vi.useFakeTimers();
    try {
      const store = new CountingStore();
      const activity = new ActivityService(store, { flushMs: 1000, batchRows: 5 });
      for (let i = 0; i < 5; i++) activity.recordClick(click(i));
      await vi.advanceTimersByTimeAsync(0);
      expect(store.clickRows).toHaveLength(5);
      activity.recordClick(click(9));
      await vi.advanceTimersByTimeAsync(999);
      expect(store.clickRows).toHaveLength(5);
      await vi.advanceTimersByTimeAsync(1);
      expect(store.clickRows).toHaveLength(6);
      await activity.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('rows a refusing store did not take are kept and written when it takes them; past the cap the oldest go, and that is told', async () => {
    const store = new CountingStore();
    const activity = new ActivityService(store, { flushMs: 60_000, batchRows: 3, maxHeld: 4 });
    const told: number[] = [];
    activity.onWriteError((_err, dropped) => told.push(dropped));
    store.down = true;
    activity.recordClick(click(1));
    activity.recordClick(click(2));
    await activity.flush();
    expect(told).toEqual([0]);
    // Refused: a full batch waits for the timer, not one write per row.
    const writes = store.writes;
    for (let i = 3; i <= 5; i++) activity.recordClick(click(i));
    await new Promise((r) => setImmediate(r));
    expect(store.writes).toBe(writes);
    await activity.flush();
    expect(told).toEqual([0, 1]);
    store.down = false;
    await activity.close();
    expect(store.clickRows.map((r) => r.listingId)).toEqual([2, 3, 4, 5]);
  });
});
