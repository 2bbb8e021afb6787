import type { Currency } from './currencies.js';

export type StockStatus = 'in_stock' | 'low_stock' | 'out_of_stock' | 'pre_order';
export type PriceTrend = 'up' | 'down' | 'stable';

export interface Variant {
  variantId: string;
  variantName: string;
  price: string;
  currency: Currency;
  stockStatus: StockStatus;
  specs: Record<string, unknown>;
}

/**
 * The one internal record of a listing: one offer on one platform. Surface A, Surface B and V2
 * are presenters of this record; nothing here is shaped for a wire format.
 */
export interface Listing {
  id: number;
  uuid: string;
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
  /** Exact native price as a decimal string, in the currency's own decimals. */
  price: string;
  currency: Currency;
  priceSgd: string | null;
  priceUsd: string | null;
  originalPrice: string | null;
  url: string;
  affiliateUrl: string | null;
  imageUrl: string | null;
  rating: string | null;
  reviewCount: number | null;
  /** Lower-case region code (sg, my, ..., us). */
  region: string;
  countryCode: string;
  inStock: boolean | null;
  stockLevel: string | null;
  shippingDays: number | null;
  specs: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  variants: Variant[];
  /** Cross-platform match group: listings of the same product share it. */
  groupId: number;
  priceTrend: PriceTrend | null;
  /** Median price over the 90 days before the current price; the base of "deals". */
  referencePrice: string | null;
  /** When the platform was last observed (the record's observed_at): drives freshness. */
  lastCheckedAt: string;
  /** When the listing's data last changed. */
  dataUpdatedAt: string;
  createdAt: string;
  updatedAt: string;
}

export interface PriceObservation {
  listingId: number;
  price: string;
  currency: Currency;
  source: string;
  observedAt: string;
}
