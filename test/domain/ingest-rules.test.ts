import { describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { normalizeRecord } from '../../src/catalog/normalize.js';
import { createdEventTail, planIngest } from '../../src/domain/ingest-rules.js';
import type { NormalizedRecord } from '../../src/domain/ingest-record.js';
import { listingUuid } from '../../src/store/derived.js';
import { rec } from '../helpers/records.js';

function normalized(over: Record<string, unknown>): NormalizedRecord {
  const n = normalizeRecord(rec(over), 1, shippedRates(), new Date('2026-11-21T00:00:00Z'));
  if (!n.ok) throw new Error(n.rejection.reason);
  return n.record;
}

describe('ingest rules', () => {
  it('a created event written from the tail worked out beside parsing is the one the rules write', () => {
    for (const over of [{}, { sku: 'Ω-2', title: 'Điện thoại "quoted" \\ \u2028', in_stock: null, category_path: null }, { price: '0', currency: 'VND' }]) {
      const r = normalized(over);
      const uuid = listingUuid(r.source, r.sku);
      const plain = planIngest(null, r, []).events.map((d) => d(1234567, uuid));
      expect(JSON.parse(plain[0].json)).toMatchObject({ id: 1234567, uuid, title: r.title, change: 'created' });
      r.stored = { uuid, createdEventTail: createdEventTail(r, uuid) } as NormalizedRecord['stored'];
      expect(planIngest(null, r, []).events.map((d) => d(1234567, uuid))).toEqual(plain);
      // Another UUID than the tail was made with: the rules' own JSON.
      expect(planIngest(null, r, []).events[0](1, 'other').json).toContain('"uuid":"other"');
    }
  });
});
