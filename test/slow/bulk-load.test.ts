import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { IngestService } from '../../src/catalog/ingest.js';
import { createSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { makeHarness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';
import { until } from '../helpers/until.js';

/**
 * A bulk load (catalog import into an empty store) defers index upkeep and matches from memory;
 * what it leaves behind must be what a row-by-row import leaves: the same rows, groups, blocking
 * keys, indexes and search answers.
 */
let dir: string;
const stores: SqliteStore[] = [];
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'bulk-load-')); });
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(name: string): SqliteStore {
  const s = createSqliteStore(join(dir, name));
  stores.push(s);
  return s;
}

async function ingest(store: SqliteStore, lines: unknown[], batchSize = 250) {
  const ingest = new IngestService(store.catalog, () => shippedRates());
  const text = lines.map((l) => JSON.stringify(l)).join('\n');
  return ingest.ingestStream(Readable.from([text]), { batchSize });
}

/** Everything a load leaves that later reads and ingests depend on. */
function snapshot(store: SqliteStore) {
  const q = (sql: string) => store.db.prepare(sql).raw().all() as unknown[][];
  return {
    listings: q('SELECT id, uuid, source, sku, title, price, price_sgd_minor, group_id, match_profile, updated_at FROM listings ORDER BY id'),
    keys: q('SELECT key, listing_id FROM block_keys ORDER BY key, listing_id'),
    observations: q('SELECT listing_id, observed_at, price FROM observations ORDER BY listing_id, observed_at'),
    events: q('SELECT kind, listing_id FROM events ORDER BY id'),
    indexes: q("SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name"),
  };
}

// The workers, run from the TypeScript sources as the build runs pending-worker.js and match-worker.js.
const tsWorker = (module: string) => ({ url: new URL('../helpers/ts-worker.mjs', import.meta.url), argv: [new URL(`../../src/store/sqlite/${module}`, import.meta.url).href] });
const workers = { profile: tsWorker('pending-worker.js'), match: tsWorker('match-worker.js') };

const checkpointWorker = tsWorker('checkpoint-worker.js');

/**
 * With the checkpoint worker running: 300 listings ingested into `store` (a file at `path`) grow
 * its WAL past 1 MB, and whether the worker copies them into the file within 5 s.
 */
async function copiedByWorker(store: SqliteStore, path: string): Promise<boolean> {
  // The writer's own checkpoints wait for a gigabyte of WAL: what reaches the file is the worker's.
  expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(65536);
  const before = statSync(path).size;
  await ingest(store, catalog().slice(0, 300));
  expect(statSync(`${path}-wal`).size).toBeGreaterThan(1 << 20);
  const copied = () => statSync(path).size > before + (512 << 10);
  return until(copied, 5000, 50);
}

const catalog = () => [...generateDemoRecords({ listings: 1500, seed: 11, historyDays: 0, now: new Date('2026-11-20T00:00:00Z') })];

/** The first 300 listings of the catalog bulk-loaded, not yet finished, and a second connection (a server's) to the same file. */
async function storedBeside(name: string) {
  const records = catalog().slice(0, 300);
  const loader = open(name);
  const server = open(name);
  expect(loader.catalog.startBulkLoad()).toBe(true);
  await ingest(loader, records);
  return { records, loader, server };
}

describe('bulk load', () => {
  it('leaves what a row-by-row import leaves, each listing matched on its state at the end of the file', async () => {
    const records: unknown[] = catalog();
    const first = records[10] as Record<string, unknown>;
    // A price change halfway and a retitle at the end: the load goes on through both, and the
    // listing is matched once, on its last state.
    const repriced = { ...first, price: '1.00', observed_at: '2026-11-21T00:00:00.000Z' };
    const retitled = { ...repriced, title: 'Completely different product name 9000', observed_at: '2026-11-22T00:00:00.000Z' };
    records.splice(700, 0, repriced);
    records.push(retitled, rec({ sku: 'LAST' }));

    const plain = open('plain.db');
    const bulk = open('bulk.db');
    await ingest(plain, records);
    expect(bulk.catalog.startBulkLoad()).toBe(true);
    const summary = await ingest(bulk, records);
    expect(bulk.db.prepare('SELECT count(*) FROM listings WHERE match_profile IS NULL').pluck().get()).toBe(records.length - 2);
    const finish = await bulk.catalog.finishBulkLoad({ workers });

    expect(summary).toMatchObject({ rejected: 0, updated: 2 });
    expect(finish.grouped).toBe(records.length - 2);
    // Prices seen and events are the file's; groups, profiles and keys are those of a row-by-row
    // import of each listing's last state, in the order the listings first appear.
    const last = [...records.slice(0, 700), ...records.slice(701, -2)].map((r) => (r === first ? retitled : r));
    last.push(records[records.length - 1]);
    const final = open('final.db');
    await ingest(final, last);
    const { observations, events, ...matched } = snapshot(bulk);
    expect({ observations, events }).toEqual({ observations: snapshot(plain).observations, events: snapshot(plain).events });
    const { observations: _o, events: _e, ...expected } = snapshot(final);
    expect(matched).toEqual(expected);
    expect(new Set(matched.listings.map((l) => l[7])).size).toBeLessThan(1400); // groups formed
    expect(bulk.db.prepare('SELECT count(*) FROM bulk_load').pluck().get()).toBe(0);
    // The same answers (the one listing's history aside: `final` never saw its first price).
    const answer = async (store: SqliteStore, text: string) => {
      const r = await store.catalog.search({ text, filter: {}, sort: 'relevance', limit: 20, offset: 0, facets: true });
      return { ...r, listings: r.listings.map((l) => [l.id, l.groupId, l.title, l.price]) };
    };
    for (const text of ['laptop', 'wireless headphones', 'samsung', 'completely different']) {
      expect(await answer(bulk, text)).toEqual(await answer(final, text));
    }
    expect((await answer(bulk, 'completely different')).total).toBe(1);
  }, 60_000);

  it('serves what it stored, unmatched, before its end', async () => {
    const { records, loader, server } = await storedBeside('serving.db');
    const stored = await server.catalog.getById(1);
    expect(stored).toMatchObject({ sku: records[0].sku, groupId: 1 });
    const hits = await server.catalog.search({ text: records[0].title, filter: {}, sort: 'relevance', limit: 5, offset: 0, facets: false });
    expect(hits.listings.map((l) => l.id)).toContain(1);
    await loader.catalog.finishBulkLoad();
    expect(server.db.prepare('SELECT count(*) FROM listings WHERE match_profile IS NULL').pluck().get()).toBe(0);
  }, 30_000);

  it('keeps the group and deals indexes through the load; the connection serves with its own settings after the builds', async () => {
    const { loader, server } = await storedBeside('kept.db');
    const indexes = () => server.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'listings'").pluck().all();
    expect(indexes()).toEqual(expect.arrayContaining(['listings_group', 'listings_deals']));
    expect(indexes()).not.toContain('listings_uuid');
    const groupPlan = (server.db.prepare('EXPLAIN QUERY PLAN SELECT id FROM listings WHERE group_id = 5').all() as Array<{ detail: string }>).map((r) => r.detail);
    expect(groupPlan.join()).toContain('USING COVERING INDEX listings_group');
    const settings = () => ['cache_size', 'temp_store', 'mmap_size', 'threads'].map((p) => loader.db.pragma(p, { simple: true }));
    const serving = settings();
    // What the builds set: small sorter runs through temp files, a helper thread, the whole file mapped.
    const pragma = loader.db.pragma.bind(loader.db);
    const set: string[] = [];
    loader.db.pragma = ((source: string, options?: { simple?: boolean }) => {
      if (source.includes('=')) set.push(source);
      return pragma(source, options);
    }) as typeof loader.db.pragma;
    await loader.catalog.finishBulkLoad();
    expect(set.slice(0, 4)).toEqual(['cache_size = -2000', 'temp_store = 1', `mmap_size = ${2 ** 40}`, 'threads = 2']);
    expect(settings()).toEqual(serving);
    expect(serving[0]).toBe(-131072);
  });

  it('while it matches, a writer finds a listing by (source, sku) through the SKU index; the unique index follows', async () => {
    const { loader, server } = await storedBeside('writer-index.db');
    const indexes = () => server.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'listings'").pluck().all();
    const plan = () => (server.db.prepare('EXPLAIN QUERY PLAN SELECT id FROM listings WHERE source = ? AND sku = ?').all('lazada_sg', 'X') as Array<{ detail: string }>)
      .map((r) => r.detail).join('; ');
    const seen: Array<{ indexes: unknown[]; plan: string }> = [];
    await loader.catalog.finishBulkLoad({ onGrouped: () => { if (!seen.length) seen.push({ indexes: indexes(), plan: plan() }); } });
    // Served (read indexes built) and matching: the lookup reads the few rows of one SKU, no scan.
    expect(seen[0].indexes).toContain('listings_sku');
    expect(seen[0].indexes).not.toContain('listings_source_sku');
    expect(seen[0].plan).toContain('USING INDEX listings_sku');
    expect(indexes()).toContain('listings_source_sku');
    // Listing 1 again under another id and UUID: its (source, sku) is taken.
    const columns = server.db.prepare("SELECT name FROM pragma_table_info('listings')").pluck().all() as string[];
    const copied = columns.map((c) => (c === 'id' ? '9999' : c === 'uuid' ? "uuid || 'x'" : c));
    const insert = `INSERT INTO listings (${columns.join(', ')}) SELECT ${copied.join(', ')} FROM listings WHERE id = 1`;
    expect(() => server.db.exec(insert)).toThrow(/UNIQUE constraint failed: listings.source, listings.sku/);
  });

  it('checkpoints the WAL from a worker thread while it loads; the writer checkpoints as before after it', async () => {
    const path = join(dir, 'checkpointed.db');
    const loader = open('checkpointed.db');
    loader.db.pragma('wal_autocheckpoint = 1000');
    expect(loader.catalog.startBulkLoad({ checkpointWorker })).toBe(true);
    expect(await copiedByWorker(loader, path)).toBe(true);
    await loader.catalog.finishBulkLoad();
    expect(loader.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(loader.db.prepare('SELECT count(*) FROM listings').pluck().get()).toBe(300);
  });

  it('an import session checkpoints from a worker thread, bulk load or not, until it ends', async () => {
    const sessionSetting = Math.round(100_000_000 / 16384);
    const path = join(dir, 'session.db');
    const importer = open('session.db');
    await ingest(importer, [rec()]);
    importer.catalog.startImport({ checkpointWorker });
    expect(importer.catalog.startBulkLoad()).toBe(false);
    expect(await copiedByWorker(importer, path)).toBe(true);
    await importer.catalog.endImport();
    expect(importer.db.pragma('wal_autocheckpoint', { simple: true })).toBe(sessionSetting);

    // A bulk load inside a session uses the session's checkpoints and leaves them running.
    const loader = open('bulk-session.db');
    loader.catalog.startImport({ checkpointWorker });
    expect(loader.catalog.startBulkLoad()).toBe(true);
    await ingest(loader, catalog().slice(0, 300));
    await loader.catalog.finishBulkLoad();
    expect(loader.db.pragma('wal_autocheckpoint', { simple: true })).toBe(65536);
    await loader.close();
    // The checkpoint worker had closed its connection: the writer's close took in the rest of the WAL, and removed it.
    expect(existsSync(join(dir, 'bulk-session.db-wal'))).toBe(false);
  });

  it('starts only on an empty store, one at a time', async () => {
    const a = open('one.db');
    await ingest(a, [rec()]);
    expect(a.catalog.startBulkLoad()).toBe(false);
    const b = open('two.db');
    expect(b.catalog.startBulkLoad()).toBe(true);
    const other = open('two.db');
    expect(other.catalog.startBulkLoad()).toBe(false);
    await b.catalog.finishBulkLoad();
    expect(snapshot(b).indexes).toEqual(snapshot(a).indexes);
  });

  it('ends when another writer writes: its memory is then not the whole store', async () => {
    const records = catalog().slice(0, 600);
    const loader = open('shared.db');
    const other = open('shared.db');
    expect(loader.catalog.startBulkLoad()).toBe(true);
    await ingest(loader, records.slice(0, 300));
    await ingest(other, [rec({ sku: 'FROM-THE-SERVER' })]);
    await ingest(loader, records.slice(300));
    expect(loader.db.prepare('SELECT count(*) FROM bulk_load').pluck().get()).toBe(0);
    expect(loader.db.prepare('SELECT count(*) FROM block_keys_staging').pluck().get()).toBe(0);

    const plain = open('plain.db');
    await ingest(plain, records.slice(0, 300));
    await ingest(plain, [rec({ sku: 'FROM-THE-SERVER' })]);
    await ingest(plain, records.slice(300));
    await loader.catalog.finishBulkLoad(); // a no-op: the load already ended
    expect(snapshot(loader)).toEqual(snapshot(plain));
  }, 30_000);

  it('ends when another writer writes while it matches, and matches the rest against the store', async () => {
    const records = catalog().slice(0, 600);
    const loader = open('late.db');
    const other = open('late.db');
    expect(loader.catalog.startBulkLoad()).toBe(true);
    await ingest(loader, records);
    // The same product as a stored listing, on another platform, from a server's ingest.
    const grouped = (store: SqliteStore) => store.db.prepare('SELECT group_id FROM listings WHERE id = ?').pluck();
    const product = records.findIndex((r, i) => r.gtin && records.some((o, j) => j > i && o.gtin === r.gtin));
    const twin = { ...records[product], source: 'walmart_us', sku: 'FROM-THE-SERVER', currency: 'USD', url: 'https://www.walmart.com/ip/x/1' };
    await ingest(other, [twin]);
    const finish = await loader.catalog.finishBulkLoad({ workers });
    expect(finish.grouped).toBe(600);
    expect(finish.endedEarly).toEqual({ fromMemory: 0, because: 'another writer' });
    expect(loader.db.prepare('SELECT count(*) FROM bulk_load').pluck().get()).toBe(0);
    expect(loader.db.prepare('SELECT count(*) FROM block_keys_staging').pluck().get()).toBe(0);
    // Matched against the store, the stored listings found the twin (their memory had not).
    expect(grouped(loader).get(601)).toBe(grouped(loader).get(product + 1));

    // The same groups as a row-by-row import of the file and then the twin (named by another member).
    const plain = open('plain.db');
    await ingest(plain, records);
    await ingest(plain, [twin]);
    const partition = (store: SqliteStore) => {
      const members = new Map<number, number[]>();
      for (const [id, g] of store.db.prepare('SELECT id, group_id FROM listings ORDER BY id').raw().all() as Array<[number, number]>) {
        members.set(g, [...(members.get(g) ?? []), id]);
      }
      return [...members.values()].sort((a, b) => a[0] - b[0]);
    };
    expect(partition(loader)).toEqual(partition(plain));
    expect(snapshot(loader).keys).toEqual(snapshot(plain).keys);
  }, 30_000);

  it('goes on against the store when its memory nears the heap limit, with the groups of a row-by-row import', async () => {
    // Three matching chunks (PENDING_CHUNK 2000): the first from memory, the rest after the load ends.
    const records = [...generateDemoRecords({ listings: 4500, seed: 12, historyDays: 0, now: new Date('2026-11-20T00:00:00Z') })];
    const loader = open('full.db');
    let checks = 0;
    expect(loader.catalog.startBulkLoad({ memoryFull: () => ++checks > 1 })).toBe(true);
    await ingest(loader, records, 1000);
    const finish = await loader.catalog.finishBulkLoad({ workers });
    expect(finish.grouped).toBe(4500);
    expect(finish.endedEarly).toEqual({ fromMemory: 2000, because: 'heap limit' });
    // Asked before the first chunk, then full for the worker's second and again for the retry that
    // ends the load; never asked once the load had ended.
    expect(checks).toBe(3);
    expect(loader.db.prepare('SELECT count(*) FROM bulk_load').pluck().get()).toBe(0);
    expect(loader.db.prepare('SELECT count(*) FROM block_keys_staging').pluck().get()).toBe(0);
    expect(loader.db.prepare('SELECT count(*) FROM listings WHERE match_profile IS NULL').pluck().get()).toBe(0);

    const plain = open('plain.db');
    await ingest(plain, records, 1000);
    const mine = snapshot(loader);
    const theirs = snapshot(plain);
    const groups = (s: typeof mine) => s.listings.map((row) => [row[0], row[7]]);
    expect(groups(mine)).toEqual(groups(theirs));
    expect(mine.keys).toEqual(theirs.keys);
    expect(mine.indexes).toEqual(theirs.indexes);
    // Some listings joined another's group, so the chunks after the first found candidates in the store.
    expect(groups(mine).filter(([id, g]) => id !== g).length).toBeGreaterThan(100);
  }, 60_000);

  it('goes on against the store when the match worker nears its heap limit, with the groups of a row-by-row import', async () => {
    const records = [...generateDemoRecords({ listings: 2500, seed: 13, historyDays: 0, now: new Date('2026-11-20T00:00:00Z') })];
    const loader = open('worker-full.db');
    expect(loader.catalog.startBulkLoad()).toBe(true);
    await ingest(loader, records, 1000);
    // A share of 0: the worker stops before its first batch, as one whose heap filled would.
    const finish = await loader.catalog.finishBulkLoad({ workers: { ...workers, heapShare: 0 } });
    expect(finish.grouped).toBe(2500);
    expect(finish.endedEarly).toEqual({ fromMemory: 0, because: 'heap limit' });
    expect(loader.db.prepare('SELECT count(*) FROM listings WHERE match_profile IS NULL').pluck().get()).toBe(0);
    const plain = open('plain.db');
    await ingest(plain, records, 1000);
    const groups = (s: SqliteStore) => snapshot(s).listings.map((row) => [row[0], row[7]]);
    expect(groups(loader)).toEqual(groups(plain));
    expect(snapshot(loader).keys).toEqual(snapshot(plain).keys);
    expect(groups(loader).filter(([id, g]) => id !== g).length).toBeGreaterThan(50);
  }, 60_000);

  it('a server beside it drops its cached answers when the matching changes groups', async () => {
    const records = catalog().slice(0, 400);
    const path = join(dir, 'served.db');
    const loader = open('served.db');
    expect(loader.catalog.startBulkLoad()).toBe(true);
    await ingest(loader, records);
    const h = await makeHarness({ DATABASE_URL: `sqlite:${path}` });
    try {
      await h.c.tail.start();
      const { headers } = await h.key('pro');
      // A listing whose product is on other platforms too, asked for by SKU: its merchant links are its group.
      const first = records.findIndex((r, i) => r.gtin && records.some((o, j) => j > i && o.gtin === r.gtin));
      const url = `/v1/products/${encodeURIComponent(records[first].sku)}`;
      const get = () => h.app.inject({ method: 'GET', url, headers });
      expect((await get()).headers['x-cache']).toBe('MISS');
      const before = await get();
      expect(before.headers['x-cache']).toBe('HIT');
      expect(before.json().merchant_links).toHaveLength(1);

      await loader.catalog.finishBulkLoad();
      await h.c.tail.poke();
      const after = await get();
      expect(after.headers['x-cache']).toBe('MISS');
      expect(after.json().merchant_links.length).toBeGreaterThan(1);
    } finally {
      await h.close();
    }
  }, 30_000);

  it('a load whose process died is finished by the next one to open the store and recover it', async () => {
    const records = catalog().slice(0, 400);
    const crashed = open('crash.db');
    expect(crashed.catalog.startBulkLoad()).toBe(true);
    await ingest(crashed, records);
    // The loader dies before finishing: its pid names no running process.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    crashed.db.prepare('UPDATE bulk_load SET pid = ?').run(Number(gone));
    expect(snapshot(crashed).indexes.map((i) => i[0])).not.toContain('listings_sku');
    await crashed.close();

    const reopened = open('crash.db');
    expect(reopened.recovery.needed()).toBe(true);
    await reopened.recovery.run();
    expect(reopened.recovery.needed()).toBe(false);
    const plain = open('plain.db');
    await ingest(plain, records);
    expect(snapshot(reopened)).toEqual(snapshot(plain));
  }, 30_000);
});
