import type { Currency } from './currencies.js';
import type { StockStatus, Variant } from './listing.js';

/**
 * An ingest record after validation and normalization: every field typed, money exact, the
 * SGD/USD normalizations computed. The store writes it; it never sees raw input.
 */
export interface NormalizedRecord {
  line: number;
  source: string;
  sku: string;
  merchantId: string | null;
  title: string;
  description: string | null;
  brand: string | null;
  category: string | null;
  categoryPath: string[] | null;
  gtin: string | null;
  mpn: string | null;
  price: string;
  currency: Currency;
  priceSgd: string;
  priceUsd: string;
  /** SGD price in integer cents: exact ordering and range filters. */
  priceSgdMinor: number;
  originalPrice: string | null;
  url: string;
  affiliateUrl: string | null;
  imageUrl: string | null;
  rating: string | null;
  reviewCount: number | null;
  region: string;
  countryCode: string;
  inStock: boolean | null;
  stockLevel: string | null;
  shippingDays: number | null;
  specs: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  variants: Variant[];
  observedAt: string;
}

export const STOCK_STATUSES: StockStatus[] = ['in_stock', 'low_stock', 'out_of_stock', 'pre_order'];

export type IngestOutcome = 'inserted' | 'updated' | 'unchanged';
