import type { AlertCondition } from './alert-condition.js';
import type { Currency } from './currencies.js';

export type EventKind = 'product_update' | 'price_change' | 'stock_change' | 'alert_fired';
export const EVENT_KINDS: readonly EventKind[] = ['product_update', 'price_change', 'stock_change', 'alert_fired'];

/** What every event says of its listing, as the listing was right after the change. */
export interface ListingSnapshot {
  id: number;
  uuid: string;
  title: string;
  price: string;
  currency: Currency;
  priceSgd: string | null;
  source: string;
  category: string | null;
  categoryPath: string[] | null;
  countryCode: string;
  inStock: boolean | null;
  url: string;
  updatedAt: string;
}

/** A listing was created or its data changed. */
export interface ProductUpdate {
  kind: 'product_update';
  change: 'created' | 'updated';
  listing: ListingSnapshot;
}

/** A listing's price changed within its currency; `changePct` is negative for a drop. */
export interface PriceChange {
  kind: 'price_change';
  listing: ListingSnapshot;
  oldPrice: string;
  newPrice: string;
  oldPriceSgd: string | null;
  changePct: number;
}

/** A listing's stock flag or level changed. */
export interface StockChange {
  kind: 'stock_change';
  listing: ListingSnapshot;
  oldInStock: boolean | null;
  newInStock: boolean | null;
  oldStockLevel: string | null;
  newStockLevel: string | null;
}

/** The alert_fired change of a firing: the listing as the change left it, and what fired. */
export interface AlertFired {
  kind: 'alert_fired';
  listing: ListingSnapshot;
  alertId: string;
  firingId: string;
  accountId: number;
  condition: AlertCondition;
  triggerEventId: number;
  /** True when the alert arms again (it has a re-arm rule). */
  rearms: boolean;
}

export type CatalogChange = ProductUpdate | PriceChange | StockChange | AlertFired;

/** A change as the event log holds it: ids increase in commit order. */
export interface CatalogEvent {
  id: number;
  listingId: number;
  createdAt: string;
  change: CatalogChange;
}
