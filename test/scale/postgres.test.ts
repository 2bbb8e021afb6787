import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { GroupAssigner, type RegroupOp } from '../../src/store/postgres/ingest-match.js';
import { MatchCache } from '../../src/store/postgres/match-cache.js';
import { profileOfListing } from '../../src/domain/listing-profile.js';
import { blockingKeys, MAX_CANDIDATES, MAX_PER_KEY } from '../../src/domain/matching/index.js';
import { createSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/types.js';
import { createPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { TEST_DATABASE_URL } from './env.js';
import { ingest, storeContract } from '../store/contract.js';
import { lookupContract } from '../store/lookup-contract.js';
import { rec } from '../helpers/records.js';
import { schemaFactory } from './env.js';

const schemas = schemaFactory('contract');
afterAll(() => schemas.dropAll());

storeContract('postgres', () => schemas.store());
lookupContract('postgres', () => schemas.store());

type Line = Record<string, unknown>;
const NOW = new Date('2026-11-20T00:00:00.000Z');
const later = (day: number) => `2026-11-${String(day).padStart(2, '0')}T12:00:00.000Z`;

/** Generated listings with price history, then a feed that renames a fifth of them (new groups, moved block keys). */
function feed(): Line[] {
  const base = [...generateDemoRecords({ listings: 300, seed: 11, historyDays: 10, now: NOW })] as unknown as Line[];
  const firsts = new Map<string, Line>();
  for (const r of base) firsts.set(`${r.source}|${r.sku}`, r);
  const all = [...firsts.values()];
  const renamed = all.filter((_, i) => i % 5 === 0).map((r, i) => ({
    ...r, title: all[(i * 7 + 3) % all.length].title, observed_at: later(21), price: String(r.price),
  }));
  return [...base, ...renamed];
}

/** A common title pair carried by 70 listings; the lowest 15 are renamed later, in the same batch as 5 newcomers. */
function hotKey(): Line[][] {
  const widget = (n: number) => rec({ sku: `W${n}`, source: n % 2 ? 'shopee_sg' : 'lazada_sg', title: `Zorblax Quantum Widget ${n % 3 ? 'Blue' : 'Red'} Edition`,
    brand: 'Zorblax', price: `${100 + n}.00` });
  const first = Array.from({ length: 70 }, (_, i) => widget(i));
  const renames = Array.from({ length: 15 }, (_, i) => ({ ...widget(i), title: `Plain Steel Kettle ${i} Litre`, brand: 'Kettleco', observed_at: later(21) }));
  const newcomers = Array.from({ length: 5 }, (_, i) => ({ ...widget(100 + i), observed_at: later(21) }));
  return [first, [...renames, ...newcomers, ...renames.slice(0, 3).map((r) => ({ ...r, title: 'Zorblax Quantum Widget Red Edition', observed_at: later(22) }))]];
}

async function snapshot(store: Store) {
  const count = await store.catalog.count();
  const listings = await store.catalog.getMany(Array.from({ length: count + 10 }, (_, i) => i + 1));
  const events = await store.events.readAfter(0, 100_000);
  const observations = await Promise.all(listings.filter((l) => l.id % 9 === 0).map((l) => store.catalog.observations(l.id, '2000-01-01', { limit: 500, offset: 0 })));
  return { count, listings, events, observations };
}

describe('PostgreSQL batch writer keeps the SQLite writer decisions', () => {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
  });
  const postgres = async (): Promise<PostgresStore> => {
    const s = await schemas.store();
    await s.migrate();
    stores.push(s);
    return s;
  };

  it('the same listings, ids, groups, events and observations whatever the batch size', async () => {
    const lines = feed();
    const sqlite = createSqliteStore(':memory:');
    stores.push(sqlite);
    const expected = await ingest(sqlite, lines, 1000);
    const want = await snapshot(sqlite);
    expect(new Set(want.listings.map((l) => l.groupId)).size).toBeLessThan(want.count);
    for (const batch of [1000, 37, 4]) {
      const pg = await postgres();
      expect(await ingest(pg, lines, batch)).toEqual(expected);
      expect(await snapshot(pg)).toEqual(want);
    }
  });

  it('text survives the batch statements: quotes, backslashes, braces, emoji; a lone surrogate becomes U+FFFD', async () => {
    const pg = await postgres();
    const odd = 'He said "hi" \\ {a,b} NULL \'x\' \u{1F600} ĐIỆN 電話 \\ud800';
    await ingest(pg, [rec({ sku: 'Q1', title: odd, description: odd, brand: 'A"B\\C', specs: { 'k"': 'v\\' } }),
      rec({ sku: 'Q2', title: 'Lone \ud800 surrogate', category: 'Phones', category_path: ['A,B', '{C}'] })]);
    const [a, b] = await pg.catalog.getMany([1, 2]);
    expect([a.title, a.description, a.brand, a.specs]).toEqual([odd, odd, 'A"B\\C', { 'k"': 'v\\' }]);
    expect(b.title).toBe('Lone \ufffd surrogate');
    expect(b.categoryPath).toEqual(['A,B', '{C}']);
    expect(await ingest(pg, [rec({ sku: 'Q1', title: odd, description: odd, brand: 'A"B\\C', specs: { 'k"': 'v\\' } })])).toMatchObject({ unchanged: 1 });
  });

  it('a key listed by more listings than are read stays exact when its lowest ids leave it', async () => {
    const [first, second] = hotKey();
    const sqlite = createSqliteStore(':memory:');
    stores.push(sqlite);
    const pg = await postgres();
    for (const batch of [first, second]) expect(await ingest(pg, batch, 500)).toEqual(await ingest(sqlite, batch, 500));
    expect(await snapshot(pg)).toEqual(await snapshot(sqlite));
  });

  it('two writers taking turns see each other (the cache of the one that waited is dropped)', async () => {
    const lines = feed();
    const sqlite = createSqliteStore(':memory:');
    stores.push(sqlite);
    const a = await postgres();
    const b = await createPostgresStore(TEST_DATABASE_URL, { schema: a.schema });
    stores.push(b);
    for (let i = 0, turn = 0; i < lines.length; i += 150, turn++) {
      const part = lines.slice(i, i + 150);
      expect(await ingest(turn % 2 ? b : a, part, 150)).toEqual(await ingest(sqlite, part, 150));
    }
    expect(await snapshot(a)).toEqual(await snapshot(sqlite));
  });

  it('candidates are those the per-listing query of the table gives, op by op', async () => {
    const pg = await postgres();
    const [first, second] = hotKey();
    await ingest(pg, [...feed(), ...first], 500);
    const opOf = async (r: Line, i: number): Promise<RegroupOp> => {
      const profile = profileOfListing({ title: String(r.title), description: null, brand: (r.brand as string) ?? null, gtin: null, mpn: null,
        category: null, specs: null, priceUsd: null });
      const stored = (await pg.catalog.getBySku(String(r.sku))).find((l) => l.source === r.source);
      // Renames of stored listings (the hot key's lowest ids among them) interleaved with new listings.
      return { id: stored?.id ?? 100_000 + i, isNew: !stored, profile, keys: blockingKeys(profile) };
    };
    const others = feed().slice(0, 120).map((r, i) => ({ ...r, sku: i % 2 ? r.sku : `new-${i}`, title: feed()[i * 3].title }));
    const ops = await Promise.all([...second, ...others].map(opOf));
    expect(ops.filter((o) => !o.isNew).length).toBeGreaterThan(60);
    const client = await pg.pool.connect();
    try {
      await client.query('BEGIN');
      await new GroupAssigner(new MatchCache()).select(client, ops);
      for (const op of ops) {
        // The candidate query the writer used to run per listing, against the table as the ops before left it.
        const { rows } = await client.query<{ id: number }>(`WITH c AS (SELECT k.n, b.listing_id AS id FROM unnest($1::text[]) WITH ORDINALITY AS k(key, n)
            CROSS JOIN LATERAL (SELECT listing_id FROM block_keys b WHERE b.key = k.key AND b.listing_id <> $2 ORDER BY b.listing_id LIMIT ${MAX_PER_KEY}) b),
          f AS (SELECT id, min(n) AS n FROM c GROUP BY id)
          SELECT f.id FROM f JOIN listings l ON l.id = f.id WHERE l.match_profile IS NOT NULL ORDER BY f.n, f.id LIMIT ${MAX_CANDIDATES}`, [op.keys, op.id]);
        expect(op.candidates).toEqual(rows.map((r) => r.id).sort((x, y) => x - y));
        await client.query('DELETE FROM block_keys WHERE listing_id = $1', [op.id]);
        await client.query('INSERT INTO block_keys (key, listing_id) SELECT DISTINCT k, $2::bigint FROM unnest($1::text[]) k', [op.keys, op.id]);
        if (op.isNew) {
          await client.query(`INSERT INTO listings (id, uuid, source, sku, title, price, currency, price_sgd_minor, url, region, country_code, group_id,
            match_profile, last_checked_at, data_updated_at, created_at, updated_at, changed_at) VALUES ($1, $2, 's', $2, 't', '1', 'SGD', 1, 'u', 'sg', 'SG', $1, '{}', '', '', '', '', '')`,
          [op.id, `op-${op.id}`]);
        }
      }
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});

describe('PostgreSQL point reads made together go out as one query', () => {
  it('ids, SKUs, group sizes and members: one query each for a batch, every caller its own answer', async () => {
    const store = await schemas.store();
    try {
      await store.migrate();
      await ingest(store, [
        rec({ sku: 'A', source: 'shopee_sg', gtin: '4006381333931' }),
        rec({ sku: 'A', source: 'lazada_sg', gtin: '4006381333931', price: '479.00' }),
        rec({ sku: 'B', source: 'shopee_sg', title: 'Plain Steel Kettle 2 Litre', brand: 'Kettleco', price: '39.90' }),
      ]);
      const query = vi.spyOn(store.pool, 'query');
      const [one, two, missing, again] = await Promise.all([1, 2, 999, 1].map((id) => store.catalog.getById(id)));
      expect([one?.sku, two?.source, missing, again?.id]).toEqual(['A', 'lazada_sg', null, 1]);
      expect(query).toHaveBeenCalledTimes(1);

      query.mockClear();
      const [a, b, none] = await Promise.all(['A', 'B', 'nope'].map((sku) => store.catalog.getBySku(sku)));
      expect(a.map((l) => l.source).sort()).toEqual(['lazada_sg', 'shopee_sg']);
      expect(b.map((l) => l.sku)).toEqual(['B']);
      expect(none).toEqual([]);
      expect(query).toHaveBeenCalledTimes(1);

      query.mockClear();
      const [pair, kettle] = await Promise.all([store.catalog.groupStats([one!.groupId]), store.catalog.groupStats([3, 12345])]);
      expect(pair.get(one!.groupId)?.size).toBe(2);
      expect([kettle.get(3)?.size, kettle.has(12345)]).toEqual([1, false]);
      expect(query).toHaveBeenCalledTimes(1);

      query.mockClear();
      const [members, alone, empty] = await Promise.all([one!.groupId, 3, 12345].map((g) => store.catalog.groupMembers(g)));
      expect(members.map((l) => l.id)).toEqual([1, 2]);
      expect(alone.map((l) => l.sku)).toEqual(['B']);
      expect(empty).toEqual([]);
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      await store.close();
    }
  });
});
