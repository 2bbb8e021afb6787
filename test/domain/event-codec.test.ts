import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeChange, encodeChange } from '../../src/domain/event-codec.js';
import type { CatalogChange, ListingSnapshot } from '../../src/domain/events.js';

const snapshot: fc.Arbitrary<ListingSnapshot> = fc.record({
  id: fc.integer({ min: 1 }), uuid: fc.uuid(), title: fc.string(), price: fc.constantFrom('0', '12.50', '1290000'),
  currency: fc.constantFrom('SGD', 'VND', 'USD'), priceSgd: fc.option(fc.constantFrom('1.00', '499.00')),
  source: fc.constantFrom('shopee_sg', 'tiki_vn'), category: fc.option(fc.string()), categoryPath: fc.option(fc.array(fc.string(), { maxLength: 3 })),
  countryCode: fc.constantFrom('SG', 'VN'), inStock: fc.constantFrom(true, false, null), url: fc.webUrl(),
  updatedAt: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
});

const change: fc.Arbitrary<CatalogChange> = fc.oneof(
  fc.record({ kind: fc.constant('product_update' as const), change: fc.constantFrom('created' as const, 'updated' as const), listing: snapshot }),
  fc.record({
    kind: fc.constant('price_change' as const), listing: snapshot, oldPrice: fc.constantFrom('10.00', '9.99'), newPrice: fc.constantFrom('8.00', '11.00'),
    oldPriceSgd: fc.option(fc.constant('10.00')), changePct: fc.double({ min: -100, max: 1000, noNaN: true }).map((x) => x + 0),
  }),
  fc.record({
    kind: fc.constant('stock_change' as const), listing: snapshot, oldInStock: fc.constantFrom(true, false, null), newInStock: fc.constantFrom(true, false, null),
    oldStockLevel: fc.option(fc.constantFrom('low', 'high')), newStockLevel: fc.option(fc.constantFrom('low', 'high')),
  }),
);

describe('event codec', () => {
  it('decodes what it encodes, for every kind', () => {
    fc.assert(fc.property(change, (c) => {
      expect(decodeChange(c.kind, encodeChange(c))).toEqual(c);
    }), { numRuns: 500 });
  });

  it('reads the stored form the log has always held', () => {
    const stored = '{"id":7,"uuid":"u-7","title":"Kettle","price":"59.00","currency":"SGD","price_sgd":"59.00","source":"lazada_sg",'
      + '"category":"Kettles","category_path":["Home","Kettles"],"country_code":"SG","in_stock":false,"url":"https://x.example/k",'
      + '"updated_at":"2026-11-20T10:00:00.000Z","product_id":7,"old_price":"69.00","new_price":"59.00","old_price_sgd":"69.00","change_pct":-14.49}';
    const c = decodeChange('price_change', stored);
    expect(c).toEqual({
      kind: 'price_change', oldPrice: '69.00', newPrice: '59.00', oldPriceSgd: '69.00', changePct: -14.49,
      listing: {
        id: 7, uuid: 'u-7', title: 'Kettle', price: '59.00', currency: 'SGD', priceSgd: '59.00', source: 'lazada_sg', category: 'Kettles',
        categoryPath: ['Home', 'Kettles'], countryCode: 'SG', inStock: false, url: 'https://x.example/k', updatedAt: '2026-11-20T10:00:00.000Z',
      },
    });
    expect(encodeChange(c)).toBe(stored);
  });
});
