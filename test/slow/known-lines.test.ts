import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { IngestService, type IngestSummary } from '../../src/catalog/ingest.js';
import type { KnownLine, NormalizedRecord } from '../../src/domain/ingest-record.js';
import { createSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { lastCheckedAt } from '../../src/store/sqlite/listing-reads.js';
import type { CatalogStore } from '../../src/store/types.js';
import { rec } from '../helpers/records.js';

/**
 * A feed imported again (docs/ingest.md, "Into a store that holds listings"): the parse worker
 * passes the lines stored as they are on unnormalized, and the store only touches their listings.
 * What the store holds after must be what the same imports leave without that shortcut.
 */
const runner = {
  url: new URL('../helpers/ts-worker.mjs', import.meta.url), argv: [new URL('../../src/catalog/ingest-worker.js', import.meta.url).href],
  // Small pieces, few out at a time: later pieces go out after the first batches are written, with lookups on.
  pieceBytes: 4096, inFlightBytes: 8192,
};
const dir = mkdtempSync(join(tmpdir(), 'known-lines-'));
const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function feed(lines: Array<Record<string, unknown> | string>): { path: string } {
  const path = join(dir, `feed-${files++}.ndjson`);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return { path };
}

/** A store, and the service importing into it, counting the known lines it is given. */
function importer(name: string) {
  const store = createSqliteStore(join(dir, name));
  stores.push(store);
  const counted = { known: 0, stopped: 0 };
  const catalog = new Proxy(store.catalog, {
    get(target, prop, receiver) {
      if (prop !== 'knownLines') return Reflect.get(target, prop, receiver);
      return () => {
        const cap = target.knownLines()!;
        return {
          file: cap.file,
          ingest: async (items: Array<NormalizedRecord | KnownLine>) => {
            counted.known += items.filter((i) => (i as KnownLine).known).length;
            const r = await cap.ingest(items);
            if (r.stoppedAt !== undefined) counted.stopped++;
            return r;
          },
        };
      };
    },
  }) as CatalogStore;
  const service = new IngestService(catalog, () => shippedRates());
  return {
    store, counted,
    import: (input: { path: string }, parallel: boolean): Promise<IngestSummary> =>
      service.ingestStream(input, parallel ? { batchSize: 50, parallel: true, runner } : { batchSize: 50 }),
  };
}

/** Everything an import leaves that reads depend on. */
function snapshot(store: SqliteStore) {
  const q = (sql: string) => store.db.prepare(sql).raw().all() as unknown[][];
  return {
    listings: q(`SELECT id, source, sku, title, price, price_sgd, ${lastCheckedAt()}, updated_at, group_id, line_hash FROM listings ORDER BY id`),
    observations: q('SELECT listing_id, observed_at, price FROM observations ORDER BY listing_id, observed_at'),
    events: q('SELECT kind, listing_id, payload FROM events ORDER BY id'),
  };
}

const day = (d: number) => `2026-11-${String(20 + d).padStart(2, '0')}T10:00:00.000Z`;
const catalog = (d: number, price: (i: number) => string) =>
  Array.from({ length: 600 }, (_, i) => rec({ sku: `K-${i}`, title: `Item ${i} Widget Pro ${i % 7}`, price: price(i), observed_at: day(d) }));

describe('known lines', () => {
  it('a feed a day later: the unchanged lines are known and only touched; the store ends as without the shortcut', async () => {
    const fast = importer('fast.db');
    const plain = importer('plain.db');
    const first = feed(catalog(0, (i) => `${100 + i}.00`));
    const next = feed(catalog(1, (i) => (i % 10 === 0 ? `${200 + i}.00` : `${100 + i}.00`)));
    for (const t of [fast, plain]) expect((await t.import(first, false)).inserted).toBe(600);
    const summary = await fast.import(next, true);
    expect(summary).toMatchObject({ lines: 600, inserted: 0, updated: 60, unchanged: 540, rejected: 0 });
    expect(fast.counted.known).toBeGreaterThan(400);
    expect(fast.counted.stopped).toBe(0);
    expect((await plain.import(next, false))).toMatchObject({ updated: 60, unchanged: 540 });
    expect(snapshot(fast.store)).toEqual(snapshot(plain.store));
    const row = fast.store.db.prepare(`SELECT ${lastCheckedAt()} AS last_checked_at, updated_at, line_hash FROM listings WHERE sku = 'K-599'`).get() as Record<string, string>;
    expect(row).toMatchObject({ last_checked_at: day(1), updated_at: day(0) });
    expect(row.line_hash).toMatch(/=$/);
  });

  it('a known line whose listing an earlier line changed is stored as it says, after that line', async () => {
    const fast = importer('stale.db');
    const plain = importer('stale-plain.db');
    const first = feed(catalog(0, (i) => `${100 + i}.00`));
    for (const t of [fast, plain]) await t.import(first, false);
    // The end of the feed: K-599 at a new price, then K-599 as it was first stored (known to the
    // worker, which read the store before the change was written), then K-598 known as well.
    const lines = catalog(1, (i) => `${100 + i}.00`);
    lines.push(rec({ sku: 'K-599', title: 'Item 599 Widget Pro 4', price: '1.00', observed_at: day(2) }));
    lines.push(rec({ sku: 'K-599', title: 'Item 599 Widget Pro 4', price: '699.00', observed_at: day(3) }));
    lines.push(rec({ sku: 'K-598', title: 'Item 598 Widget Pro 3', price: '698.00', observed_at: day(3) }));
    const next = feed(lines);
    const summary = await fast.import(next, true);
    expect(summary).toMatchObject({ lines: 603, updated: 2, unchanged: 601, rejected: 0 });
    expect(fast.counted.stopped).toBe(1);
    await plain.import(next, false);
    expect(snapshot(fast.store)).toEqual(snapshot(plain.store));
    const prices = fast.store.db.prepare("SELECT observed_at, price FROM observations WHERE listing_id = (SELECT id FROM listings WHERE sku = 'K-599') ORDER BY observed_at").raw().all();
    expect(prices).toEqual([[day(0), '699.00'], [day(2), '1.00'], [day(3), '699.00']]);
  });

  it('a stale known line mid-feed is normalized from its own bytes, read after later pieces went out', async () => {
    const fast = importer('stale-mid.db');
    const plain = importer('stale-mid-plain.db');
    const thai = (d: number, price: (i: number) => string) => catalog(d, price).map((r, i) => (i === 300 ? { ...r, title: 'นมผง Nelix Summit 【พร้อมส่ง】 300' } : r));
    const first = feed(thai(0, (i) => `${100 + i}.00`));
    for (const t of [fast, plain]) await t.import(first, false);
    // K-300 at a new price, then K-300 as first stored: known to the worker, stale at the writer.
    const lines: Array<Record<string, unknown>> = thai(1, (i) => `${100 + i}.00`);
    lines.splice(300, 0, { ...lines[300], price: '1.00', observed_at: day(2) });
    lines[301] = { ...lines[301], observed_at: day(3) };
    const next = feed(lines);
    const summary = await fast.import(next, true);
    expect(summary).toMatchObject({ lines: 601, updated: 2, unchanged: 599, rejected: 0 });
    expect(fast.counted.stopped).toBe(1);
    await plain.import(next, false);
    expect(snapshot(fast.store)).toEqual(snapshot(plain.store));
    const row = fast.store.db.prepare("SELECT title, price FROM listings WHERE sku = 'K-300'").get();
    expect(row).toEqual({ title: 'นมผง Nelix Summit 【พร้อมส่ง】 300', price: '400.00' });
  });

  it('bad lines among known ones are reported by line; a line written another way is normalized and stays unchanged', async () => {
    const fast = importer('bad.db');
    await fast.import(feed(catalog(0, (i) => `${100 + i}.00`)), false);
    const lines: Array<Record<string, unknown> | string> = catalog(1, (i) => `${100 + i}.00`);
    lines[300] = '{not json';
    lines[400] = { ...(lines[400] as Record<string, unknown>), observed_at: 'yesterday' };
    // Members in another order: another text, the same record.
    const { sku, ...rest } = lines[500] as Record<string, unknown>;
    lines[500] = { ...rest, sku };
    const summary = await fast.import(feed(lines), true);
    expect(summary).toMatchObject({ lines: 600, unchanged: 598, rejected: 2 });
    expect(summary.rejections).toEqual([
      { line: 301, field: '(line)', reason: 'not valid JSON' },
      { line: 401, field: 'observed_at', reason: 'must be an ISO 8601 time' },
    ]);
    expect(fast.counted.known).toBeGreaterThan(400);
    const moved = fast.store.db.prepare(`SELECT ${lastCheckedAt()} FROM listings WHERE sku IN ('K-400', 'K-500') ORDER BY sku`).pluck().all();
    expect(moved).toEqual([day(0), day(1)]);
  });
});
