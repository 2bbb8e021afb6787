import type { NormalizedRecord } from '../../src/domain/ingest-record.js';

/** A valid ingest record with sensible defaults; override what a test is about. */
export function rec(over: Record<string, unknown> = {}): Record<string, unknown> {
  const sku = (over.sku as string) ?? 'SKU-1';
  const source = (over.source as string) ?? 'shopee_sg';
  return {
    source, sku, title: 'Samsung Galaxy A55 5G 8GB 128GB Awesome Navy', price: '499.00', currency: 'SGD',
    url: `https://shop.example.com/${source}/${sku}`, brand: 'Samsung', category: 'Smartphones',
    category_path: ['Electronics', 'Mobile Phones', 'Smartphones'], rating: 4.6, review_count: 120,
    in_stock: true, stock_level: 'high', shipping_days: 2, observed_at: '2026-11-20T10:00:00.000Z',
    ...over,
  };
}

/**
 * A record's members as a plain object: a record unpacked from a parse worker reads its nested
 * fields through accessors, which a comparison or spread of own members would skip.
 */
export const plainRecord = (r: NormalizedRecord): NormalizedRecord =>
  ({ ...r, categoryPath: r.categoryPath, specs: r.specs, metadata: r.metadata, variants: r.variants });
