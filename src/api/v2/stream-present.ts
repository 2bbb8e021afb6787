import type { Static } from 'typebox';
import { alertFiredData } from '../../domain/alerts.js';
import type { CatalogEvent, ListingSnapshot } from '../../domain/events.js';
import { stockStatus } from '../../domain/stream-filter.js';
import { sseMessage } from '../../events/sse-text.js';
import type { PriceChangeData, ProductUpdateData, StockChangeData } from './stream-schemas.js';

/** The events of the V2 streams (spec 6.1): pure functions from a logged event to its `data`. */

export type StreamEventData =
  | { event: 'product_update'; data: Static<typeof ProductUpdateData> }
  | { event: 'price_change'; data: Static<typeof PriceChangeData> }
  | { event: 'stock_change'; data: Static<typeof StockChangeData> }
  | { event: 'alert_fired'; data: ReturnType<typeof alertFiredData> };

const listing = (l: ListingSnapshot) => ({
  uuid: l.uuid, title: l.title, currency: l.currency, source: l.source, country_code: l.countryCode, url: l.url, updated_at: l.updatedAt,
});

export function presentStreamEvent(e: CatalogEvent): StreamEventData {
  const c = e.change;
  const l = c.listing;
  switch (c.kind) {
    case 'product_update':
      return {
        event: 'product_update',
        data: { id: l.id, ...listing(l), price: l.price, price_sgd: l.priceSgd, category: l.category, in_stock: l.inStock, change: c.change },
      };
    case 'price_change':
      return {
        event: 'price_change',
        data: {
          product_id: l.id, ...listing(l), old_price: c.oldPrice, new_price: c.newPrice, change_pct: c.changePct,
          old_price_sgd: c.oldPriceSgd, new_price_sgd: l.priceSgd,
        },
      };
    case 'stock_change':
      return {
        event: 'stock_change',
        data: {
          product_id: l.id, ...listing(l), price: l.price,
          old_stock_status: stockStatus(c.oldInStock, c.oldStockLevel), new_stock_status: stockStatus(c.newInStock, c.newStockLevel),
          old_in_stock: c.oldInStock, new_in_stock: c.newInStock,
        },
      };
    case 'alert_fired':
      return { event: 'alert_fired', data: alertFiredData(c) };
  }
}

/** The whole message: `id:` the event log id, `event:` the kind, `data:` one JSON line. */
export function frameStreamEvent(e: CatalogEvent): string {
  const p = presentStreamEvent(e);
  return sseMessage(e.id, p.event, p.data);
}
