import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { normalizeRecord } from '../../src/catalog/normalize.js';
import { createdTail } from '../../src/domain/event-codec.js';
import { planIngest, type StoredListing } from '../../src/domain/ingest-rules.js';
import type { NormalizedRecord } from '../../src/domain/ingest-record.js';
import { listingUuid } from '../../src/domain/listing-id.js';
import { storedColumns } from '../../src/domain/listing-columns.js';
import { rec } from '../helpers/records.js';

function normalized(over: Record<string, unknown>): NormalizedRecord {
  const n = normalizeRecord(rec(over), 1, shippedRates(), new Date('2026-11-21T00:00:00Z'));
  if (!n.ok) throw new Error(n.rejection.reason);
  return n.record;
}

const JSON_FIELDS = ['categoryPath', 'specs', 'metadata', 'variants'] as const;

/**
 * The listing a record stored, as a store reads it back: its JSON fields kept as texts (`texts`,
 * the record's own by default), parsed when read, and every read of them counted.
 */
function storedListing(r: NormalizedRecord, texts: Partial<NonNullable<StoredListing['storedJson']>> = {}) {
  const storedJson = { ...storedColumns(r), ...texts };
  const reads: string[] = [];
  const { line: _l, priceSgdMinor: _m, observedAt, stored: _s, categoryPath: _c, specs: _sp, metadata: _md, variants: _v, ...fields } = r;
  const listing = {
    ...fields, id: 1, uuid: listingUuid(r.source, r.sku), groupId: 1, priceTrend: 'stable', referencePrice: null,
    lastCheckedAt: observedAt, dataUpdatedAt: observedAt, createdAt: observedAt, updatedAt: observedAt, storedJson,
  } as unknown as StoredListing;
  for (const f of JSON_FIELDS) {
    Object.defineProperty(listing, f, { get: () => (reads.push(f), JSON.parse(storedJson[f] ?? 'null') ?? (f === 'variants' ? [] : null)) });
  }
  return { listing, reads };
}

describe('ingest rules', () => {
  const specs = { storage: '256GB', colours: ['navy', 'lilac'] };

  it('a record with the stored JSON texts of its listing is unchanged, its JSON fields never parsed', () => {
    const r = normalized({ specs, metadata: { seller: 'official' } });
    r.stored = storedColumns(r);
    const { listing, reads } = storedListing(r);
    expect(planIngest(listing, r, [])).toMatchObject({ outcome: 'unchanged', state: null, events: [] });
    expect(reads).toEqual([]);

    // Observed again a day later: still unchanged, lastCheckedAt moves on, the rest read from the listing.
    const later = normalized({ specs, metadata: { seller: 'official' }, observed_at: '2026-11-21T10:00:00.000Z' });
    later.stored = storedColumns(later);
    const plan = planIngest(listing, later, []);
    expect(plan).toMatchObject({ outcome: 'unchanged', observe: false, events: [] });
    expect(plan.state!.lastCheckedAt).toBe('2026-11-21T10:00:00.000Z');
    expect([plan.state!.title, plan.state!.price, plan.state!.dataUpdatedAt]).toEqual([listing.title, listing.price, listing.dataUpdatedAt]);
    expect(reads).toEqual([]);
    expect(plan.state!.specs).toEqual(specs);
    expect(reads).toEqual(['specs']);
  });

  it('stored JSON texts written another way are compared as values; other values are an update', () => {
    const r = normalized({ specs });
    r.stored = storedColumns(r);
    // Another writer's spacing, and no texts at all (a store that keeps none): the same values.
    const spaced = storedListing(r, { specs: JSON.stringify(specs, null, 2) });
    expect(planIngest(spaced.listing, r, []).outcome).toBe('unchanged');
    expect(spaced.reads).toEqual(['specs']);
    const { storedJson: _t, ...plain } = storedListing(r).listing;
    expect(planIngest({ ...plain, categoryPath: r.categoryPath, specs: r.specs, metadata: r.metadata, variants: r.variants }, r, []).outcome).toBe('unchanged');

    const other = storedListing(r, { specs: JSON.stringify({ ...specs, storage: '128GB' }) });
    expect(planIngest(other.listing, r, [])).toMatchObject({ outcome: 'updated', events: [expect.any(Function)] });
  });

  it('a created event written from the tail worked out beside parsing is the one the rules write', () => {
    const check = (over: Record<string, unknown>) => {
      const n = normalizeRecord(rec(over), 1, shippedRates(), new Date('2026-11-21T00:00:00Z'));
      if (!n.ok) return;
      const r = n.record;
      const stored = storedColumns(r);
      const plain = planIngest(null, r, []).events.map((d) => d(1234567, stored.uuid));
      expect(JSON.parse(plain[0].json)).toMatchObject({ id: 1234567, uuid: stored.uuid, title: r.title, change: 'created' });
      r.stored = { ...stored, createdEventTail: createdTail(r, stored) };
      expect(planIngest(null, r, []).events.map((d) => d(1234567, stored.uuid))).toEqual(plain);
      // Another UUID than the tail was made with: the rules' own JSON.
      expect(planIngest(null, r, []).events[0](1, 'other').json).toContain('"uuid":"other"');
    };
    for (const over of [{}, { sku: 'Ω-2', title: 'Điện thoại "quoted" \\ \u2028', in_stock: null, category_path: null }, { price: '0', currency: 'VND' }]) check(over);
    // Texts that need escaping (quotes, backslashes, controls, lone surrogates) in every free member.
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string(), fc.constantFrom('"', '\\', '\u0000', '\ud800', 'a\u2028b', '😀'));
    const over = fc.record({
      title: text, category: fc.option(text), category_path: fc.option(fc.array(text, { maxLength: 3 })), url: text.map((t) => `https://a.example/${t}`),
      in_stock: fc.constantFrom(true, false, null), price: fc.constantFrom('0', '12.5', '99999.999', 7), currency: fc.constantFrom('SGD', 'VND', 'idr', 'USD'),
      observed_at: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
      source: fc.constantFrom('shopee_sg', 'Lazada.MY', 'tiki-vn'), country_code: fc.constantFrom('sg', 'VN', undefined),
    }, { requiredKeys: [] });
    fc.assert(fc.property(over, (o) => { check(o); }), { numRuns: 3000 });
  });
});
