import { afterAll, describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { normalizeRecord } from '../../src/catalog/normalize.js';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { profileOfListing } from '../../src/domain/listing-profile.js';
import { blockingKeys, buildProfile, chooseGroup, MAX_CANDIDATES, MAX_PER_KEY, MemoryBlocks } from '../../src/domain/matching/index.js';
import { makeHarness, type Harness } from '../helpers/app.js';

describe('candidates: at most MAX_PER_KEY from a key, MAX_CANDIDATES in all', () => {
  const profile = buildProfile({ title: 'acme widget', brand: null, gtin: null, mpn: null, category: null, specs: null, priceUsd: null });

  it('reads the keys after a common one; a listing met before counts against a key\'s share', () => {
    const M = MAX_PER_KEY;
    const blocks = new MemoryBlocks();
    const keysOf = (id: number) => (id < 2 * M ? ['t:common', ...(id >= M - 2 && id < M ? ['t:late'] : [])] : id === 2 * M ? ['t:rare'] : ['t:late']);
    for (let id = 0; id <= 3 * M; id++) blocks.add({ id, groupId: id, profile }, keysOf(id));
    const ids = blocks.candidates(['t:common', 't:rare', 't:late']).map((c) => c.id);
    // The common key's M lowest ids; the rare key's one; the late key's two already met, then M - 2 more.
    const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
    expect(ids).toEqual([...range(0, M), 2 * M, ...range(2 * M + 1, M - 2)]);
  });

  it('stops at MAX_CANDIDATES over all keys', () => {
    const blocks = new MemoryBlocks();
    const keys = Array.from({ length: 6 }, (_, k) => `t:k${k}`);
    for (let id = 0; id < 6 * MAX_PER_KEY; id++) blocks.add({ id, groupId: id, profile }, [keys[Math.floor(id / MAX_PER_KEY)]]);
    expect(blocks.candidates(keys)).toHaveLength(Math.min(MAX_CANDIDATES, 6 * MAX_PER_KEY));
  });

  // The stores apply the rule to their own tables (SQLite's posting heads keep MAX_PER_KEY + 1
  // ids a key): a catalogue grouped on ingest comes out as the in-memory rule groups it.
  describe('the SQLite ingest path groups as the in-memory rule does', () => {
    let h: Harness;
    afterAll(async () => h?.close());

    it('over 3,000 demo listings', async () => {
      const records = [...generateDemoRecords({ listings: 3000, seed: 11, historyDays: 0 })];
      const rates = shippedRates();
      const blocks = new MemoryBlocks();
      for (const raw of records) {
        const n = normalizeRecord(raw, 1, rates, new Date());
        if (!n.ok) throw new Error(JSON.stringify(n.rejection));
        const p = profileOfListing(n.record);
        const keys = blockingKeys(p);
        const id = blocks.listings.length;
        blocks.add({ id, groupId: chooseGroup(p, blocks.candidates(keys))?.groupId ?? id, profile: p }, keys);
      }
      h = await makeHarness();
      const summary = await h.ingest(records);
      expect(summary.rejected).toBe(0);
      // Groups compared as partitions: each listing labelled with the first listing of its group.
      const label = (groups: number[]) => {
        const first = new Map<number, number>();
        return groups.map((g, i) => first.get(g) ?? (first.set(g, i), i));
      };
      const stored: number[] = [];
      for (const r of records) stored.push((await h.c.catalog.findBySku(r.sku))[0].groupId);
      const memory = blocks.listings.map((l) => l.groupId);
      expect(new Set(memory).size).toBeLessThan(records.length * 0.9);
      expect(label(stored)).toEqual(label(memory));
    }, 60_000);
  });
});
