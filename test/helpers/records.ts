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
