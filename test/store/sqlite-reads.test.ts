import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { inList, IN_LIST_MAX, listingColumns } from '../../src/store/sqlite/listing-reads.js';
import { StoredRowListing, toListing, type ListingRow } from '../../src/store/sql/listing-row.js';
import { rec } from '../helpers/records.js';
import { ingest } from './contract.js';

/** The SQLite read paths that batch ids into IN lists of fixed arities and page by ids first. */
let store: SqliteStore;
const N = IN_LIST_MAX + 90;
beforeAll(async () => {
  store = createSqliteStore(':memory:');
  await store.migrate();
  // Three products on several platforms each (one group per product), plus listings of their own.
  await ingest(store, Array.from({ length: N }, (_, i) => rec({
    sku: `R${i}`, source: ['shopee_sg', 'lazada_sg', 'amazon_sg', 'qoo10_sg'][i % 4], price: `${100 + (i % 37)}.00`,
    title: i < 12 ? `Reads Kettle Model K${i % 3} 1.7L` : `Unique widget number ${i}`,
    gtin: i < 12 ? `400638133393${i % 3}` : undefined, observed_at: `2026-11-${String(1 + (i % 19)).padStart(2, '0')}T10:00:00.000Z`,
    ...(i % 5 === 0 ? {
      merchant_id: `m${i}`, description: `about ${i}`, mpn: `MPN-${i}`, image_url: `https://img.example.com/${i}.jpg`,
      affiliate_url: `https://go.example.com/${i}`, original_price: '199.00', specs: { watts: i }, metadata: { batch: i },
      variants: [{ variant_id: `v${i}`, variant_name: 'Blue', price: '101.00', currency: 'SGD', stock_status: 'in_stock', specs: { color: 'blue' } }],
    } : {}),
  })));
  // A second observation at a new price gives price_trend and reference_price a value.
  await ingest(store, [rec({ sku: 'R0', source: 'shopee_sg', price: '90.00', title: 'Reads Kettle Model K0 1.7L', gtin: '4006381333930', observed_at: '2026-11-25T10:00:00.000Z' })]);
});
afterAll(() => store.close());

describe('listings read as raw rows', () => {
  it("the ingest writer's listing has every field toListing gives, and the stored JSON texts", () => {
    const star = store.db.prepare('SELECT * FROM listings ORDER BY id').all() as ListingRow[];
    const raw = store.db.prepare(`SELECT ${listingColumns()} FROM listings ORDER BY id`).raw().all() as unknown[][];
    const fields = Object.keys(toListing(star[0])) as Array<keyof ReturnType<typeof toListing>>;
    for (const [i, a] of raw.entries()) {
      const l = new StoredRowListing(a);
      expect(Object.fromEntries(fields.map((f) => [f, l[f]]))).toEqual(toListing(star[i]));
      const { category_path: categoryPath, specs, metadata, variants } = star[i];
      expect(l.storedJson).toEqual({ categoryPath, specs, metadata, variants });
    }
  });

  it('every field is what a SELECT * object row gives', async () => {
    const star = store.db.prepare('SELECT * FROM listings ORDER BY id').all() as ListingRow[];
    expect(star).toHaveLength(N);
    // Each column holds a value somewhere, so two columns read in each other's place would show.
    const empty = Object.keys(star[0]).filter((c) => star.every((r) => r[c as keyof ListingRow] === null));
    expect(empty).toEqual([]);
    const ours = await store.catalog.getMany(star.map((r) => r.id));
    expect(ours).toEqual(star.map(toListing));
    expect(await store.catalog.getById(star[7].id)).toEqual(toListing(star[7]));
    expect(await store.catalog.getByUuid(star[7].uuid)).toEqual(toListing(star[7]));
    expect(await store.catalog.getBySku(star[7].sku)).toEqual([toListing(star[7])]);
    const group = star.filter((r) => r.group_id === star[0].group_id).map(toListing);
    expect(await store.catalog.groupMembers(star[0].group_id)).toEqual(group);
  });
});

describe('IN lists of fixed arities', () => {
  it('pads to the next power of two by repeating the last value', () => {
    expect(inList([7])).toEqual({ params: [7], marks: '?' });
    expect(inList([1, 2, 3])).toEqual({ params: [1, 2, 3, 3], marks: '?,?,?,?' });
    expect(inList([1, 2, 3, 4]).params).toEqual([1, 2, 3, 4]);
  });

  it('getMany keeps the order asked, drops unknown ids, repeats repeated ones, and reads long lists in chunks', async () => {
    const ids = [...Array.from({ length: N }, (_, i) => N - i), 999_999, 5, 5];
    const got = await store.catalog.getMany(ids);
    expect(got.map((l) => l.id)).toEqual([...Array.from({ length: N }, (_, i) => N - i), 5, 5]);
    expect(got[0]).toEqual(await store.catalog.getById(N));
    expect(await store.catalog.getMany([3, 999_999, 1])).toEqual([await store.catalog.getById(3), await store.catalog.getById(1)]);
  });

  it('groupStats: one group, several, unknown ones', async () => {
    const [a, b, c, y, z] = await store.catalog.getMany([1, 2, 3, N - 1, N]);
    const members = await store.catalog.groupMembers(a.groupId);
    expect(members.length).toBeGreaterThan(1);
    const one = await store.catalog.groupStats([a.groupId]);
    expect(one).toEqual(new Map([[a.groupId, { size: members.length, minPriceSgdMinor: Math.min(...members.map((m) => Number(m.priceSgd!.replace('.', '')))) }]]));
    const groups = [...new Set([a, b, c, y, z].map((l) => l.groupId))];
    const many = await store.catalog.groupStats([...groups, 424242, a.groupId]);
    const expected = new Map<number, number>();
    for (const l of await store.catalog.getMany(Array.from({ length: N }, (_, i) => i + 1))) if (groups.includes(l.groupId)) expected.set(l.groupId, (expected.get(l.groupId) ?? 0) + 1);
    expect(new Map([...many].map(([g, s]) => [g, s.size]))).toEqual(expected);
    expect(many.get(a.groupId)).toEqual(one.get(a.groupId));
    expect(await store.catalog.groupStats([424242])).toEqual(new Map());
    expect(await store.catalog.groupStats([])).toEqual(new Map());
  });
});

describe('page reads the sort keys first, then the rows', () => {
  it('offset pages and keyset pages agree with one ordered read of everything', async () => {
    for (const sort of ['newest', 'price_asc', 'price_desc'] as const) {
      const all = await store.catalog.page({}, sort, null, 50, 0);
      const whole: number[] = [];
      let cursor = null;
      do {
        const p: Awaited<ReturnType<typeof store.catalog.page>> = await store.catalog.page({}, sort, cursor, 50, 0);
        whole.push(...p.listings.map((l) => l.id));
        cursor = p.next;
      } while (cursor);
      expect(whole).toHaveLength(N);
      expect(all.listings.map((l) => l.id)).toEqual(whole.slice(0, 50));
      const deep = await store.catalog.page({}, sort, null, 20, 300);
      expect(deep.listings.map((l) => l.id)).toEqual(whole.slice(300, 320));
      expect(deep.listings[0]).toEqual(await store.catalog.getById(whole[300]));
      expect(deep.total).toBe(N);
    }
  });

  it('with a filter, totals and pages follow it', async () => {
    const p = await store.catalog.page({ sources: ['lazada_sg'] }, 'price_asc', null, 10, 5);
    expect(p.total).toBe(Math.ceil((N - 1) / 4));
    expect(p.listings.every((l) => l.source === 'lazada_sg')).toBe(true);
    const prices = p.listings.map((l) => Number(l.priceSgd));
    expect(prices).toEqual([...prices].sort((x, y) => x - y));
  });
});
