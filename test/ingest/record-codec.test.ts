import { describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { emptyBatch, parseLine } from '../../src/catalog/ingest-lines.js';
import { packRecords, unpackRecords } from '../../src/catalog/record-codec.js';
import { plainRecord, rec } from '../helpers/records.js';

const rates = shippedRates();

describe('the flat form parse workers post records in', () => {
  it('gives back every field of every record, nested ones and matching profiles included', () => {
    const lines = [
      rec({ sku: 'A' }),
      rec({ sku: 'B', category_path: null, category: null, brand: null, rating: null, in_stock: null, original_price: '599.00' }),
      rec({
        sku: 'C', currency: 'VND', price: 22490000, specs: { ram_gb: 8, colors: ['navy', 'lime'], nested: { ok: true, none: null } },
        metadata: { seller_type: 'official', ships_from: 'VN' }, gtin: '8806095467443', mpn: 'SM-A556E',
        variants: [{ variant_id: 'C-1', variant_name: '128GB', price: '22490000', stock_status: 'low_stock', specs: { storage: '128GB' } }, { price: 23990000 }],
      }),
      rec({ sku: 'D', description: 'Tab\there, "quotes", and ünïcode 🚀', category_path: 'Home > Kitchen > Kettles' }),
    ].map((r) => JSON.stringify(r));
    for (const prepare of [false, true]) {
      const batch = emptyBatch();
      lines.forEach((line, i) => parseLine(line, i + 1, batch, { rates, now: () => new Date('2026-11-23T00:00:00Z'), prepare }));
      expect(batch.records).toHaveLength(4);
      // As a worker posts it: structured clone of the flat array.
      const back = unpackRecords(structuredClone(packRecords(batch.records)));
      expect(back.map(plainRecord)).toEqual(batch.records);
      // Parsed once, when first read: the same value every time.
      expect(back[3].categoryPath).toBe(back[3].categoryPath);
      expect(back[2].specs).toEqual({ ram_gb: 8, colors: ['navy', 'lime'], nested: { ok: true, none: null } });
      expect(back[2].variants.map((v) => v.price)).toEqual(['22490000', '23990000']);
      if (prepare) expect(back[0].prepared!.keys.length).toBeGreaterThan(0);
    }
  });

  it('packs a piece of many records into arrays small enough for the young generation, in order', () => {
    const batch = emptyBatch();
    for (let i = 0; i < 600; i++) parseLine(JSON.stringify(rec({ sku: `S${i}`, price: `${i}.50` })), i + 1, batch, { rates, now: () => new Date('2026-11-23T00:00:00Z'), prepare: false });
    const packed = packRecords(batch.records);
    // 41 fields of 256 records: 84 KB, under V8's 128 KB large-object size.
    expect(packed.map((c) => c.length)).toEqual([256 * 41, 256 * 41, 88 * 41]);
    const back = unpackRecords(structuredClone(packed));
    expect(back.map((r) => [r.line, r.sku, r.price])).toEqual(batch.records.map((r) => [r.line, r.sku, r.price]));
    expect(back.map(plainRecord)).toEqual(batch.records);
  });
});
