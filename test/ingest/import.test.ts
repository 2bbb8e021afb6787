import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

let h: Harness;
beforeEach(async () => { h = await makeHarness(); });
afterEach(async () => { await h.close(); });

describe('import', () => {
  it('stores the good lines and reports each bad one with its line number and field', async () => {
    const s = await h.ingest([
      rec({ sku: 'A' }),
      '{not json',
      rec({ sku: 'B', price: 'abc' }),
      rec({ sku: 'C', currency: 'XYZ' }),
      rec({ sku: 'D' }),
      { source: 'shopee_sg', sku: 'E' },
    ]);
    expect(s).toMatchObject({ inserted: 2, rejected: 4 });
    expect(s.rejections).toEqual([
      { line: 2, field: '(line)', reason: 'not valid JSON' },
      { line: 3, field: 'price', reason: expect.stringMatching(/decimal/) },
      { line: 4, field: 'currency', reason: 'unsupported currency XYZ' },
      { line: 6, field: 'title', reason: expect.stringMatching(/required/) },
    ]);
    expect(await h.c.store.catalog.count()).toBe(2);
  });

  it('a member of the wrong type rejects its line and never ends the import', async () => {
    // Objects with a `toString` member cannot be made text: these used to end the whole import.
    const evil = { toString: 1 };
    const s = await h.ingest([
      rec({ sku: 'A' }),
      rec({ sku: 'B', description: evil }),
      rec({ sku: 'C', category_path: ['Electronics', evil] }),
      rec({ sku: 'D', review_count: evil }),
      rec({ sku: 'E', shipping_days: [3] }),
      rec({ sku: 'F', review_count: true }),
      rec({ sku: 'G', description: 'fine', category_path: ['Electronics', 7], review_count: '12' }),
    ]);
    expect(s.rejections).toEqual([
      { line: 2, field: 'description', reason: 'must be a string' },
      { line: 3, field: 'category_path', reason: expect.stringMatching(/array of names/) },
      { line: 4, field: 'review_count', reason: 'must be a non-negative integer' },
      { line: 5, field: 'shipping_days', reason: 'must be an integer from 0 to 365' },
      { line: 6, field: 'review_count', reason: 'must be a non-negative integer' },
    ]);
    expect(s.inserted).toBe(2);
    const [g] = await h.c.catalog.findBySku('G');
    expect(g).toMatchObject({ description: 'fine', categoryPath: ['Electronics', '7'], reviewCount: 12 });
  });

  it('re-importing the same file changes nothing', async () => {
    const lines = [rec({ sku: 'A' }), rec({ sku: 'B', price: '10.00' })];
    await h.ingest(lines);
    const events = await h.c.store.events.lastId();
    const again = await h.ingest(lines);
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 2, rejected: 0 });
    expect(await h.c.store.events.lastId()).toBe(events);
  });

  it('a feed imported again a day later is unchanged: each listing observed again, nothing else written', async () => {
    const specs = { storage: '256GB', colours: ['navy'] };
    const variants = [{ variant_id: 'v1', variant_name: 'Navy', price: '499.00', currency: 'SGD', stock_status: 'in_stock', specs: { colour: 'navy' } }];
    const feed = (at: string) => [rec({ sku: 'A', specs, variants, metadata: { seller: 'official' }, observed_at: at }), rec({ sku: 'B', observed_at: at })];
    await h.ingest(feed('2026-11-20T10:00:00.000Z'));
    const events = await h.c.store.events.lastId();
    // A JSON text stored another way (another writer's spacing) still holds the same value.
    const db = (h.c.store as unknown as { db: { prepare(sql: string): { run(...a: unknown[]): unknown } } }).db;
    db.prepare("UPDATE listings SET specs = ? WHERE sku = 'A'").run(JSON.stringify(specs, null, 2));
    const again = await h.ingest(feed('2026-11-21T10:00:00.000Z'));
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 2, rejected: 0 });
    expect(await h.c.store.events.lastId()).toBe(events);
    const [a] = await h.c.catalog.findBySku('A');
    expect(a).toMatchObject({ lastCheckedAt: '2026-11-21T10:00:00.000Z', dataUpdatedAt: '2026-11-20T10:00:00.000Z', specs, metadata: { seller: 'official' } });
    expect(a.variants).toEqual([{ variantId: 'v1', variantName: 'Navy', price: '499.00', currency: 'SGD', stockStatus: 'in_stock', specs: { colour: 'navy' } }]);
    const obs = await h.c.store.catalog.observations(a.id, '2026-01-01T00:00:00Z', { limit: 10, offset: 0 });
    expect(obs.entries).toHaveLength(1);
  });

  it('a changed price updates the listing, appends an observation and a price_change event', async () => {
    await h.ingest([rec({ sku: 'A', price: '100.00', observed_at: '2026-11-01T00:00:00Z' })]);
    const s = await h.ingest([rec({ sku: 'A', price: '90.00', observed_at: '2026-11-02T00:00:00Z' })]);
    expect(s).toMatchObject({ updated: 1, inserted: 0 });
    const [l] = await h.c.catalog.findBySku('A');
    expect(l.price).toBe('90.00');
    expect(l.priceTrend).toBe('down');
    const obs = await h.c.store.catalog.observations(l.id, '2026-01-01T00:00:00Z', { limit: 10, offset: 0 });
    expect(obs.entries.map((e) => e.price)).toEqual(['90.00', '100.00']);
    const events = await h.c.store.events.readAfter(0, 10);
    const change = events.find((e) => e.change.kind === 'price_change')!;
    expect(change.change).toMatchObject({ kind: 'price_change', listing: { id: l.id }, oldPrice: '100.00', newPrice: '90.00', changePct: -10 });
  });

  it('a stock change is its own event; an older observation never overwrites newer data', async () => {
    await h.ingest([rec({ sku: 'A', observed_at: '2026-11-02T00:00:00Z' })]);
    await h.ingest([rec({ sku: 'A', in_stock: false, observed_at: '2026-11-03T00:00:00Z' })]);
    const old = await h.ingest([rec({ sku: 'A', price: '1.00', observed_at: '2026-10-01T00:00:00Z' })]);
    expect(old.unchanged).toBe(1);
    const [l] = await h.c.catalog.findBySku('A');
    expect(l.inStock).toBe(false);
    expect(l.price).toBe('499.00');
    const kinds = (await h.c.store.events.readAfter(0, 10)).map((e) => e.change.kind);
    expect(kinds).toEqual(['product_update', 'product_update', 'stock_change']);
  });

  it('normalizes money exactly: native decimals, SGD and USD', async () => {
    await h.ingest([rec({ sku: 'V', price: 22490000, currency: 'VND', source: 'tiki_vn', country_code: 'VN' })]);
    const [l] = await h.c.catalog.findBySku('V');
    expect(l.price).toBe('22490000');
    expect(l.priceSgd).toMatch(/^\d+\.\d{2}$/);
    expect(l.priceUsd).toMatch(/^\d+\.\d{2}$/);
    expect(l.region).toBe('vn');
  });

  it('accepts the alias fields name, buy_url and barcode', async () => {
    const s = await h.ingest([{ source: 'lazada_my', sku: 'X', name: 'Xiaomi Redmi Note 13', price: '799', currency: 'MYR', buy_url: 'https://lazada.com.my/x', barcode: '6941812756072' }]);
    expect(s.inserted).toBe(1);
    const [l] = await h.c.catalog.findBySku('X');
    expect(l).toMatchObject({ title: 'Xiaomi Redmi Note 13', url: 'https://lazada.com.my/x', gtin: '6941812756072', price: '799.00', countryCode: 'MY' });
  });
});
