/** Field names the agent endpoints let a caller choose (`include_fields`). */

/** compare-matrix: the fields laid side by side, by their V2 names. */
export const DIFF_FIELD_NAMES = [
  'title', 'brand', 'source', 'price', 'currency', 'price_sgd', 'category', 'rating', 'review_count', 'in_stock', 'stock_level',
  'shipping_days', 'barcode', 'region', 'specs',
] as const;
export type DiffFieldName = (typeof DIFF_FIELD_NAMES)[number];

/** bulk-compare: the members of an agent record besides `id`, which every record keeps. */
export const RECORD_FIELDS = [
  'uuid', 'sku', 'source', 'merchant_id', 'title', 'description', 'price', 'currency', 'price_sgd', 'original_price', 'brand',
  'category', 'image_url', 'rating', 'review_count', 'region', 'country_code', 'in_stock', 'stock_level', 'url', 'affiliate_url',
  'updated_at', 'data_freshness', 'confidence_score', 'price_trend', 'buybox_price', 'buybox_confidence', 'price_change_percentage',
  'demand_score', 'seasonal_factor', 'availability_prediction', 'competitor_count', 'agent_insights',
] as const;
export type RecordField = (typeof RECORD_FIELDS)[number];
