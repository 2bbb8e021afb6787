import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { IngestService } from '../../src/catalog/ingest.js';
import type { Listing } from '../../src/domain/listing.js';
import type { PageCursor, PageResult, Store } from '../../src/store/types.js';
import { freshStore } from './fresh-store.js';
import { rec } from '../helpers/records.js';

const ingest = (store: Store, rows: object[]) => new IngestService(store.catalog, shippedRates)
  .ingestStream(Readable.from([rows.map((r) => JSON.stringify(r)).join('\n')]), { now: () => new Date('2026-11-20T12:00:00.000Z') });
const at = (hour: number, minute = 0) => `2026-11-20T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`;
const response = (text: string) => ({ status: 201, headers: { 'content-type': 'application/json' }, body: Buffer.from(text) });

/** Every page of the listings the store changed at or after `since`, in the poller's order. */
async function poll(store: Store, since: string, limit = 3): Promise<Listing[]> {
  const seen: Listing[] = [];
  let cursor: PageCursor | null = null;
  do {
    const page: PageResult = await store.catalog.page({ modifiedSince: since }, 'changed', cursor, limit, 0);
    seen.push(...page.listings);
    cursor = page.next;
  } while (cursor);
  return seen;
}

/**
 * What every store adapter must do for polling agents: change-ordered pages and idempotency keys
 * (docs/sync.md). `makeStore` takes the clock the store stamps its change times with.
 */
export function syncContract(name: string, makeStore: (now: () => Date) => Promise<Store>): void {
  describe(`sync store contract: ${name}`, () => {
    // The server's clock at each write: set by a test before it ingests.
    let clock = at(12);
    const store = freshStore(() => makeStore(() => new Date(clock)));
    const ingestAt = (time: string, rows: object[]) => {
      clock = time;
      return ingest(store(), rows);
    };

    it('pages the listings changed since a time by change time then id, across ties, missing none', async () => {
      await ingestAt(at(8), [rec({ sku: 'S0', observed_at: at(8) })]);
      await ingestAt(at(9), Array.from({ length: 7 }, (_, i) => rec({ sku: `T${i}`, observed_at: at(9) })));
      await ingestAt(at(10), [rec({ sku: 'S2', observed_at: at(10) })]);
      const seen: Array<{ id: number; updatedAt: string }> = [];
      let cursor: PageCursor | null = null;
      do {
        const page = await store().catalog.page({ modifiedSince: at(9) }, 'changed', cursor, 3, 0);
        expect(page.total).toBe(8);
        seen.push(...page.listings.map((l) => ({ id: l.id, updatedAt: l.updatedAt })));
        cursor = page.next;
      } while (cursor);
      expect(seen.map((s) => s.updatedAt)).toEqual([...Array(7).fill(at(9)), at(10)]);
      const ties = seen.slice(0, 7).map((s) => s.id);
      expect(ties).toEqual([...ties].sort((a, b) => a - b));
      expect(new Set(seen.map((s) => s.id)).size).toBe(8);
      const exported: number[] = [];
      for await (const l of store().catalog.scan({ modifiedSince: at(10) }, 100, 0)) exported.push(l.id);
      expect(exported).toEqual([seen[7].id]);
      const searched = await store().catalog.search({ filter: { modifiedSince: at(9) }, sort: 'newest', limit: 50, offset: 0, afterId: 0 });
      expect(searched.listings.map((l) => l.id).sort((a, b) => a - b)).toEqual(seen.map((s) => s.id).sort((a, b) => a - b));
    });

    it('a late feed changes listings after the last sync though observed before it; an unchanged re-import moves nothing', async () => {
      await ingestAt(at(9), [rec({ sku: 'ON-TIME', observed_at: at(9) }), rec({ sku: 'LATE-UPDATE', observed_at: at(9) })]);
      // A poller synced at 10:00 and saw both.
      expect((await poll(store(), at(9))).map((l) => l.sku)).toEqual(['ON-TIME', 'LATE-UPDATE']);
      const lastSync = at(10);
      // At 11:00 a lagging feed delivers what it observed before 10:00: a new listing and a price change.
      await ingestAt(at(11), [rec({ sku: 'LATE-NEW', observed_at: at(7) }), rec({ sku: 'LATE-UPDATE', price: '479.00', observed_at: at(9, 30) })]);
      const late = await poll(store(), lastSync);
      // Both, as the feed observed them, tied on the change time and so in id order.
      expect(Object.fromEntries(late.map((l) => [l.sku, l.updatedAt]))).toEqual({ 'LATE-NEW': at(7), 'LATE-UPDATE': at(9, 30) });
      expect(late.map((l) => l.id)).toEqual(late.map((l) => l.id).sort((x, y) => x - y));
      expect(late.find((l) => l.sku === 'LATE-UPDATE')!.price).toBe('479.00');
      const exported: string[] = [];
      for await (const l of store().catalog.scan({ modifiedSince: lastSync }, 100, 0)) exported.push(l.sku);
      expect(exported.sort()).toEqual(['LATE-NEW', 'LATE-UPDATE']);
      expect((await store().catalog.search({ filter: { modifiedSince: lastSync }, sort: 'newest', limit: 50, offset: 0, afterId: 0 })).total).toBe(2);

      // At 12:00 the same feed again, observed later but with the same data: checked, not changed.
      await ingestAt(at(12), [rec({ sku: 'LATE-NEW', observed_at: at(11, 30) }), rec({ sku: 'LATE-UPDATE', price: '479.00', observed_at: at(11, 30) })]);
      expect(await poll(store(), at(11, 1))).toEqual([]);
      const again = await poll(store(), lastSync);
      expect(again.map((l) => l.id)).toEqual(late.map((l) => l.id));
      expect(again.map((l) => l.lastCheckedAt)).toEqual([at(11, 30), at(11, 30)]);
      // What clients see of the change time is still the feed's.
      expect(again.map((l) => l.updatedAt)).toEqual(late.map((l) => l.updatedAt));
      // A real change in that re-import would have moved it: here, one at 12:30.
      await ingestAt(at(12, 30), [rec({ sku: 'ON-TIME', stock_level: 'low', observed_at: at(12) })]);
      expect((await poll(store(), at(11, 1))).map((l) => l.sku)).toEqual(['ON-TIME']);
    });

    it('claims a key once; holds it in progress, then with its answer; releases; purges when expired', async () => {
      const claim = { scope: 'key:1', key: 'k1', fingerprint: 'f1', createdAt: at(10), expiresAt: at(12) };
      expect(await store().idempotency.claim(claim, at(10))).toBeNull();
      expect(await store().idempotency.claim({ ...claim, fingerprint: 'f2' }, at(10))).toMatchObject({ fingerprint: 'f1', response: null });
      // Another scope, the same key: its own.
      expect(await store().idempotency.claim({ ...claim, scope: 'key:2' }, at(10))).toBeNull();
      await store().idempotency.complete('key:1', 'k1', 'f1', response('{"id":1}'));
      const held = await store().idempotency.claim(claim, at(11));
      expect(held?.response?.status).toBe(201);
      expect(held?.response?.headers).toEqual({ 'content-type': 'application/json' });
      expect(held?.response?.body.toString()).toBe('{"id":1}');
      // A completed key is not released; an in-progress one is.
      await store().idempotency.release('key:1', 'k1');
      expect((await store().idempotency.claim(claim, at(11)))?.response).not.toBeNull();
      await store().idempotency.release('key:2', 'k1');
      expect(await store().idempotency.claim({ ...claim, scope: 'key:2' }, at(11))).toBeNull();
      // Expired: taken over by a new claim, or purged.
      expect(await store().idempotency.claim({ ...claim, fingerprint: 'f3', createdAt: at(12), expiresAt: at(14) }, at(12))).toBeNull();
      expect(await store().idempotency.claim(claim, at(12))).toMatchObject({ fingerprint: 'f3', response: null });
      expect(await store().idempotency.purge(at(13))).toBe(1);
      expect(await store().idempotency.purge(at(14))).toBe(1);
      expect(await store().idempotency.purge(at(20))).toBe(0);
    });
  });
}
