import type { DemoCurrency } from './money-minor.js';

export type DemoStockStatus = 'in_stock' | 'low_stock' | 'out_of_stock' | 'pre_order';
export type StockLevel = 'low' | 'medium' | 'high';
export type DemoRegion = 'sg' | 'my' | 'th' | 'ph' | 'vn' | 'id' | 'us';

export interface IngestVariantInput {
  variant_id: string;
  variant_name: string;
  /** Exact decimal string in the variant's currency decimals. */
  price: string;
  currency: string;
  stock_status: DemoStockStatus;
  specs: Record<string, string | number>;
}

/** One line of the public NDJSON import format. The same (source, sku) again is an update. */
export interface IngestRecordInput {
  source: string;
  sku: string;
  title: string;
  /** Exact decimal string: 0 decimals for VND and IDR, 2 for the others. */
  price: string;
  currency: string;
  url: string;
  merchant_id?: string;
  description?: string;
  brand?: string;
  /** Leaf category name. */
  category?: string;
  /** Broadest first, three levels. */
  category_path?: string[];
  gtin?: string;
  mpn?: string;
  image_url?: string;
  affiliate_url?: string;
  /** 0 to 5, one decimal. */
  rating?: number;
  review_count?: number;
  region?: DemoRegion | string;
  country_code?: string;
  in_stock?: boolean;
  stock_level?: StockLevel | null;
  /** Present when the listing shows a higher crossed-out price. */
  original_price?: string;
  shipping_days?: number;
  specs?: Record<string, string | number>;
  metadata?: Record<string, unknown>;
  variants?: IngestVariantInput[];
  /** ISO 8601 time of the observation. */
  observed_at?: string;
}

export type { DemoCurrency };
