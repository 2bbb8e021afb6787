import { describe, expect, it } from 'vitest';
import type { ClickRecord, SearchRecord, Store } from '../../src/store/types.js';
import { freshStore } from './fresh-store.js';

const at = (day: number, minute = 0) => `2026-11-${String(day).padStart(2, '0')}T10:${String(minute).padStart(2, '0')}:00.000Z`;

/** What every store adapter must do with searches, clicks and the click secret. `makeStore` returns a fresh, empty store. */
export function activityContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`activity store contract: ${name}`, () => {
    const store = freshStore(makeStore);

    it('searches: a batch in one call, read newest first from a time, of one job when asked', async () => {
      const rows: SearchRecord[] = [
        { keyId: 1, jobId: null, query: 'galaxy a55', total: 12, at: at(20) },
        { keyId: 2, jobId: 'job-1', query: 'Kettle 1.7L', total: 0, at: at(21) },
        { keyId: 2, jobId: 'job-1', query: 'kettle', total: null, at: at(21, 5) },
        { keyId: 1, jobId: 'job-2', query: 'ｕｓｂ “cable” \u{1F600}', total: 3, at: at(22) },
      ];
      await store().activity.recordSearches(rows.slice(0, 2));
      await store().activity.recordSearches(rows.slice(2));
      await store().activity.recordSearches([]);
      expect(await store().activity.searches(at(1), { limit: 10 })).toEqual([...rows].reverse());
      expect(await store().activity.searches(at(21), { limit: 2 })).toEqual([rows[3], rows[2]]);
      expect(await store().activity.searches(at(1), { jobId: 'job-1', limit: 10 })).toEqual([rows[2], rows[1]]);
      expect(await store().activity.searches(at(23), { limit: 10 })).toEqual([]);
    });

    it('clicks: per listing from a time, newest first; counts per listing', async () => {
      const rows: ClickRecord[] = [
        { listingId: 7, keyId: 1, jobId: null, at: at(20) },
        { listingId: 7, keyId: 2, jobId: 'job-1', at: at(21) },
        { listingId: 9, keyId: 2, jobId: 'job-1', at: at(21, 1) },
        { listingId: 7, keyId: 1, jobId: null, at: at(22) },
      ];
      await store().activity.recordClicks(rows);
      await store().activity.recordClicks([]);
      expect(await store().activity.clicksFor(7, at(1), 10)).toEqual([rows[3], rows[1], rows[0]]);
      expect(await store().activity.clicksFor(7, at(21), 1)).toEqual([rows[3]]);
      expect(await store().activity.clicksFor(8, at(1), 10)).toEqual([]);
      expect(await store().activity.clickCounts([7, 8, 9], at(21))).toEqual(new Map([[7, 2], [9, 1]]));
      expect(await store().activity.clickCounts([], at(1))).toEqual(new Map());
    });

    it('a batch of thousands is one call', async () => {
      const rows: ClickRecord[] = Array.from({ length: 5000 }, (_, i) => ({ listingId: i % 50, keyId: 3, jobId: i % 2 ? null : `j${i}`, at: at(20, i % 60) }));
      await store().activity.recordClicks(rows);
      const counts = await store().activity.clickCounts(Array.from({ length: 50 }, (_, i) => i), at(1));
      expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(5000);
      expect(counts.get(49)).toBe(100);
    });

    it('the click secret: the first candidate is kept; later ones get it back', async () => {
      expect(await store().activity.clickSecret('first-secret-first-secret-first-secret')).toBe('first-secret-first-secret-first-secret');
      expect(await store().activity.clickSecret('second-secret-second-secret-second')).toBe('first-secret-first-secret-first-secret');
    });
  });
}
