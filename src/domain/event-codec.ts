import type { AlertCondition } from './alert-condition.js';
import type { Currency } from './currencies.js';
import type { CatalogChange, EventKind, ListingSnapshot } from './events.js';
import type { NormalizedRecord, StoredColumns } from './ingest-record.js';
import { withFields } from './with-fields.js';

/**
 * The one codec of catalog events: a change as the event log stores it (JSON, snake_case, the
 * listing's snapshot first) and back. Every writer and reader of the log goes through here.
 */

interface SnapshotJson {
  id: number; uuid: string; title: string; price: string; currency: string; price_sgd: string | null;
  source: string; category: string | null; category_path: string[] | null; country_code: string;
  in_stock: boolean | null; url: string; updated_at: string;
}

function snapshotJson(l: ListingSnapshot): SnapshotJson {
  return {
    id: l.id, uuid: l.uuid, title: l.title, price: l.price, currency: l.currency, price_sgd: l.priceSgd,
    source: l.source, category: l.category, category_path: l.categoryPath, country_code: l.countryCode,
    in_stock: l.inStock, url: l.url, updated_at: l.updatedAt,
  };
}

export function encodeChange(c: CatalogChange): string {
  const head = snapshotJson(c.listing);
  switch (c.kind) {
    case 'product_update':
      return JSON.stringify(withFields(head, { change: c.change }));
    case 'price_change':
      return JSON.stringify(withFields(head, {
        product_id: c.listing.id, old_price: c.oldPrice, new_price: c.newPrice, old_price_sgd: c.oldPriceSgd, change_pct: c.changePct,
      }));
    case 'stock_change':
      return JSON.stringify(withFields(head, {
        product_id: c.listing.id, old_in_stock: c.oldInStock, new_in_stock: c.newInStock,
        old_stock_level: c.oldStockLevel, new_stock_level: c.newStockLevel,
      }));
    case 'alert_fired':
      return JSON.stringify(withFields(head, {
        alert_id: c.alertId, firing_id: c.firingId, account_id: c.accountId, condition: conditionJson(c.condition),
        trigger_event_id: c.triggerEventId, rearms: c.rearms,
      }));
  }
}

/** An alert condition as the event log and the API write it (snake_case). */
export interface ConditionJson {
  type: AlertCondition['type']; target?: string; currency?: string; percent?: string; base_price?: string; base_currency?: string;
}

export function conditionJson(c: AlertCondition): ConditionJson {
  switch (c.type) {
    case 'price_at_or_below': return { type: c.type, target: c.target, currency: c.currency };
    case 'drop_percent': return { type: c.type, percent: c.percent, base_price: c.basePrice, base_currency: c.baseCurrency };
    case 'back_in_stock': return { type: c.type };
  }
}

/** conditionJson, read back. */
export function conditionOf(j: Record<string, unknown>): AlertCondition {
  switch (j.type) {
    case 'price_at_or_below': return { type: 'price_at_or_below', target: String(j.target), currency: j.currency as Currency };
    case 'drop_percent':
      return { type: 'drop_percent', percent: String(j.percent), basePrice: String(j.base_price), baseCurrency: j.base_currency as Currency };
    default: return { type: 'back_in_stock' };
  }
}

type Stored = SnapshotJson & Record<string, unknown>;

export function decodeChange(kind: EventKind, json: string): CatalogChange {
  const p = JSON.parse(json) as Stored;
  const listing: ListingSnapshot = {
    id: p.id, uuid: p.uuid, title: p.title, price: p.price, currency: p.currency as Currency, priceSgd: p.price_sgd ?? null,
    source: p.source, category: p.category ?? null, categoryPath: p.category_path ?? null, countryCode: p.country_code,
    inStock: p.in_stock ?? null, url: p.url, updatedAt: p.updated_at,
  };
  switch (kind) {
    case 'product_update':
      return { kind, change: p.change === 'created' ? 'created' : 'updated', listing };
    case 'price_change':
      return {
        kind, listing, oldPrice: p.old_price as string, newPrice: p.new_price as string,
        oldPriceSgd: (p.old_price_sgd as string | null) ?? null, changePct: p.change_pct as number,
      };
    case 'stock_change':
      return {
        kind, listing, oldInStock: (p.old_in_stock as boolean | null) ?? null, newInStock: (p.new_in_stock as boolean | null) ?? null,
        oldStockLevel: (p.old_stock_level as string | null) ?? null, newStockLevel: (p.new_stock_level as string | null) ?? null,
      };
    case 'alert_fired':
      return {
        kind, listing, alertId: p.alert_id as string, firingId: p.firing_id as string, accountId: p.account_id as number,
        condition: conditionOf(p.condition as Record<string, unknown>), triggerEventId: p.trigger_event_id as number, rearms: p.rearms === true,
      };
  }
}

const CREATED_HEAD = '{"id":';
const json = (v: string | null) => JSON.stringify(v);

/**
 * A created event's JSON after its id, worked out beside parsing where the id is not known yet:
 * `encodeChange` of the new listing's product_update (a property test holds them equal), written
 * out by hand because that is cheaper. Of a record's members only its free texts (title, category,
 * URL) can need escaping; normalizeRecord writes the others in characters JSON never escapes
 * (digits, letters, `-_.:+`), and the category path's JSON text is the one stored with it.
 */
export function createdTail(r: NormalizedRecord, stored: Pick<StoredColumns, 'uuid' | 'categoryPath'>): string {
  // The record's fields are the state's a new listing is built from; it is updated at observed_at.
  return `,"uuid":"${stored.uuid}","title":${json(r.title)},"price":"${r.price}","currency":"${r.currency}","price_sgd":"${r.priceSgd}",`
    + `"source":"${r.source}","category":${json(r.category)},"category_path":${stored.categoryPath ?? 'null'},"country_code":"${r.countryCode}",`
    + `"in_stock":${r.inStock},"url":${json(r.url)},"updated_at":"${r.observedAt}","change":"created"}`;
}

/** The whole created event from its id and `createdTail`. */
export function createdFromTail(id: number, tail: string): string {
  return `${CREATED_HEAD}${id}${tail}`;
}
