import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { IngestService } from '../../src/catalog/ingest.js';
import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { rec } from '../helpers/records.js';
import { syncContract } from './sync-contract.js';

syncContract('sqlite', async (now) => createSqliteStore(':memory:', { now }));

describe('SQLite bulk load and modified_since', () => {
  it('stamps what a bulk load stores with the time it was written, and keeps the change-time index', async () => {
    const written = '2026-11-20T11:00:00.000Z';
    const store = createSqliteStore(':memory:', { now: () => new Date(written) });
    try {
      expect(store.bulkLoad.start()).toBe(true);
      const lines = Array.from({ length: 30 }, (_, i) => JSON.stringify(rec({ sku: `B${i}`, observed_at: '2026-11-18T07:00:00.000Z' })));
      const summary = await new IngestService(store.catalog, shippedRates).ingestStream(Readable.from([lines.join('\n')]), { batchSize: 7 });
      expect(summary.inserted).toBe(30);
      await store.bulkLoad.finish();
      const since = await store.catalog.page({ modifiedSince: written }, 'changed', null, 100, 0);
      expect(since.total).toBe(30);
      expect(since.listings.every((l) => l.updatedAt === '2026-11-18T07:00:00.000Z')).toBe(true);
      expect((await store.catalog.page({ modifiedSince: '2026-11-20T11:00:00.001Z' }, 'changed', null, 100, 0)).total).toBe(0);
      expect(store.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name = 'listings_changed'").pluck().get()).toBe('listings_changed');
    } finally {
      await store.close();
    }
  });
});
