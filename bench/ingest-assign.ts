import { Readable } from 'node:stream';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import type { Assign } from './eval-types.js';

const OBSERVED_AT = '2026-01-01T00:00:00.000Z';

/**
 * Groups the evaluation records through the real ingest path: each record becomes an ingest line
 * (its shop as source, its id as SKU), imported into a fresh in-memory SQLite store; the group a
 * listing lands in is what the store assigned at ingest time.
 */
export const ingestAssign: Assign = async (records) => {
  const c = await createContainer(loadConfig({ DATABASE_URL: 'sqlite::memory:', CATALOG_DEMO: 'off' }));
  try {
    const lines = records.map((r) => JSON.stringify({
      source: r.id.split('_')[0], sku: r.id, title: r.input.title, description: r.input.description ?? null,
      brand: r.input.brand, gtin: r.input.gtin, mpn: r.input.mpn, price: r.input.priceUsd ?? '0', currency: 'USD',
      url: `https://example.invalid/${encodeURIComponent(r.id)}`, observed_at: OBSERVED_AT,
    }));
    const started = process.hrtime.bigint();
    const summary = await c.ingest.ingestStream(Readable.from([lines.join('\n')]), { batchSize: 1000 });
    const micros = Number(process.hrtime.bigint() - started) / 1000 / records.length;
    if (summary.rejected) throw new Error(`${summary.rejected} evaluation records were rejected: ${JSON.stringify(summary.rejections.slice(0, 3))}`);
    const groups = new Map<string, number>();
    for (const r of records) {
      const [l] = await c.catalog.findBySku(r.id);
      groups.set(r.id, l.groupId);
    }
    console.log(`ingest path: ${records.length} listings, ${micros.toFixed(0)} µs per listing including store writes`);
    return { groups };
  } finally {
    await c.close();
  }
};
