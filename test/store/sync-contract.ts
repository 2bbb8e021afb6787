import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { IngestService } from '../../src/catalog/ingest.js';
import type { PageCursor, Store } from '../../src/store/types.js';
import { freshStore } from './fresh-store.js';
import { rec } from '../helpers/records.js';

const ingest = (store: Store, rows: object[]) => new IngestService(store.catalog, shippedRates)
  .ingestStream(Readable.from([rows.map((r) => JSON.stringify(r)).join('\n')]), { now: () => new Date('2026-11-20T12:00:00.000Z') });
const at = (hour: number) => `2026-11-20T${String(hour).padStart(2, '0')}:00:00.000Z`;
const response = (text: string) => ({ status: 201, headers: { 'content-type': 'application/json' }, body: Buffer.from(text) });

/** What every store adapter must do for polling agents: change-ordered pages and idempotency keys (docs/sync.md). */
export function syncContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`sync store contract: ${name}`, () => {
    const store = freshStore(makeStore);

    it('pages the listings changed since a time by change time then id, across ties, missing none', async () => {
      await ingest(store(), [
        rec({ sku: 'S0', observed_at: at(8) }),
        ...Array.from({ length: 7 }, (_, i) => rec({ sku: `T${i}`, observed_at: at(9) })),
        rec({ sku: 'S2', observed_at: at(10) }),
      ]);
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
