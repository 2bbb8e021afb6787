import { randomUUID } from 'node:crypto';
import Big from 'big.js';
import { alertStatus, MAX_QUIET_PERIOD_SECONDS, MIN_QUIET_PERIOD_SECONDS, type AlertCondition, type AlertFiring, type AlertRecord, type RearmRule } from '../domain/alerts.js';
import { decimalsOf, isCurrency } from '../domain/currencies.js';
import type { Listing } from '../domain/listing.js';
import { parseDecimal } from '../domain/money.js';
import type { Tier } from '../domain/tier.js';
import type { AlertStore, CatalogStore, EventLogStore } from '../store/types.js';
import type { IdResolver } from './id-resolver.js';

/** What a caller asks for, as the API and the MCP tool take it. */
export interface AlertInput {
  /** Any id form: integer id, UUID, SKU, GTIN, product URL. */
  product: string;
  condition: { type: string; target?: string | number; currency?: string; percent?: string | number };
  rearm?: { after?: string; quiet_period_seconds?: number } | null;
  expiresAt?: string | null;
}

/** An alert with its listing (null when the listing is gone) and the status its owner sees now. */
export interface AlertView {
  alert: AlertRecord;
  listing: Listing | null;
  status: ReturnType<typeof alertStatus>;
}

/** A refusal the caller answers; `field` is the path of the member at fault. */
export type AlertRefusal =
  | { ok: false; reason: 'invalid'; field: string[]; message: string }
  | { ok: false; reason: 'limit'; max: number; tier: Tier };
export type AlertOutcome<T> = { ok: true; value: T } | AlertRefusal;

const invalid = (field: string[], message: string): AlertRefusal => ({ ok: false, reason: 'invalid', field, message });

/** At most two decimals of a percent: finer drops are noise in a price. */
const PERCENT = /^\d{1,2}(\.\d{1,2})?$/;

/**
 * The alert use cases (docs/alerts.md): create with the checks the schema cannot make, list, read,
 * delete, firing history. Every call is scoped to the calling account; the evaluator fires them.
 */
export class AlertService {
  constructor(
    private readonly store: AlertStore,
    private readonly catalog: CatalogStore,
    private readonly log: EventLogStore,
    private readonly resolver: IdResolver,
    private readonly limits: Readonly<Record<Tier, number>>,
    private readonly now: () => Date,
  ) {}

  limitFor(tier: Tier): number {
    return this.limits[tier];
  }

  async create(accountId: number, tier: Tier, input: AlertInput): Promise<AlertOutcome<AlertView>> {
    const at = this.now().toISOString();
    const max = this.limits[tier];
    const expiresAt = input.expiresAt ?? null;
    if (expiresAt !== null) {
      const t = Date.parse(expiresAt);
      if (Number.isNaN(t)) return invalid(['expires_at'], 'expires_at must be an ISO 8601 date-time, e.g. 2026-12-31T23:59:59Z');
      if (t <= this.now().getTime()) return invalid(['expires_at'], 'expires_at must be in the future');
    }
    const [resolved] = await this.resolver.resolveMany([input.product]);
    if (!resolved) return invalid(['product'], `No listing answers "${input.product}" (an integer id, UUID, SKU, GTIN or product URL).`);
    const listing = resolved.listing;
    const condition = conditionOf(input.condition, listing);
    if (!('type' in condition)) return condition;
    const rearm = rearmOf(input.rearm ?? null, condition);
    if (rearm !== null && 'ok' in rearm) return rearm;
    const rec: AlertRecord = {
      id: randomUUID(), accountId, listingId: listing.id, condition, rearm, expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      state: 'armed', fireCount: 0, lastFiredAt: null, fromEventId: await this.log.lastId(), createdAt: at, updatedAt: at,
    };
    if (!(await this.store.create(rec, max, at))) return { ok: false, reason: 'limit', max, tier };
    return { ok: true, value: { alert: rec, listing, status: 'armed' } };
  }

  async list(accountId: number, opts: { limit: number; offset: number }): Promise<{ items: AlertView[]; total: number; active: number }> {
    const at = this.now().toISOString();
    const [page, active] = await Promise.all([this.store.list(accountId, opts), this.store.activeCount(accountId, at)]);
    const listings = new Map((await this.catalog.getMany([...new Set(page.items.map((a) => a.listingId))])).map((l) => [l.id, l]));
    return { items: page.items.map((a) => ({ alert: a, listing: listings.get(a.listingId) ?? null, status: alertStatus(a, at) })), total: page.total, active };
  }

  async get(accountId: number, id: string): Promise<AlertView | null> {
    const a = await this.store.get(accountId, id);
    if (!a) return null;
    return { alert: a, listing: await this.catalog.getById(a.listingId), status: alertStatus(a, this.now().toISOString()) };
  }

  async remove(accountId: number, id: string): Promise<boolean> {
    return this.store.delete(accountId, id);
  }

  async firings(accountId: number, id: string, opts: { limit: number; offset: number }): Promise<{ items: AlertFiring[]; total: number } | null> {
    return this.store.firings(accountId, id, opts);
  }
}

/** The condition, exact, or the refusal naming its member. A drop is measured from the listing's price now. */
function conditionOf(c: AlertInput['condition'], listing: Listing): AlertCondition | AlertRefusal {
  const at = (m: string) => ['condition', m];
  const extra = (allowed: string[]) => (['target', 'currency', 'percent'] as const).find((k) => c[k] !== undefined && !allowed.includes(k));
  switch (c.type) {
    case 'price_at_or_below': {
      const x = extra(['target', 'currency']);
      if (x) return invalid(at(x), `${x} does not apply to price_at_or_below (it takes target and currency)`);
      if (c.currency === undefined) return invalid(at('currency'), 'price_at_or_below needs a currency (ISO 4217, e.g. SGD)');
      const currency = c.currency.toUpperCase();
      if (!isCurrency(currency)) return invalid(at('currency'), `unknown currency "${c.currency}"`);
      if (c.target === undefined) return invalid(at('target'), 'price_at_or_below needs a target amount');
      const target = parseDecimal(c.target);
      if (target === null || target.lte(0)) return invalid(at('target'), 'target must be a positive decimal amount, e.g. "199.00"');
      const places = decimalsOf(currency);
      if (!target.round(places).eq(target)) return invalid(at('target'), `${currency} amounts have at most ${places} decimals`);
      return { type: 'price_at_or_below', target: target.toFixed(places), currency };
    }
    case 'drop_percent': {
      const x = extra(['percent']);
      if (x) return invalid(at(x), `${x} does not apply to drop_percent (it takes percent)`);
      if (c.percent === undefined) return invalid(at('percent'), 'drop_percent needs a percent');
      const text = String(c.percent).trim();
      if (!PERCENT.test(text) || new Big(text).lte(0)) return invalid(at('percent'), 'percent must be above 0 and below 100, with at most two decimals');
      return { type: 'drop_percent', percent: new Big(text).toFixed(), basePrice: listing.price, baseCurrency: listing.currency };
    }
    case 'back_in_stock': {
      const x = extra([]);
      if (x) return invalid(at(x), `${x} does not apply to back_in_stock`);
      return { type: 'back_in_stock' };
    }
    default:
      return invalid(at('type'), 'type must be price_at_or_below, drop_percent or back_in_stock');
  }
}

function rearmOf(r: AlertInput['rearm'], c: AlertCondition): RearmRule | AlertRefusal {
  if (r === null || r === undefined) return null;
  const after = r.after;
  const quiet = r.quiet_period_seconds;
  if ((after === undefined) === (quiet === undefined)) return invalid(['rearm'], 'rearm takes exactly one of after or quiet_period_seconds');
  if (after !== undefined) {
    if (after !== 'price_above_target') return invalid(['rearm', 'after'], 'after must be price_above_target');
    if (c.type === 'back_in_stock') return invalid(['rearm', 'after'], 'price_above_target applies to price conditions; back_in_stock re-arms with quiet_period_seconds');
    return { after };
  }
  if (!Number.isInteger(quiet) || quiet! < MIN_QUIET_PERIOD_SECONDS || quiet! > MAX_QUIET_PERIOD_SECONDS) {
    return invalid(['rearm', 'quiet_period_seconds'], `quiet_period_seconds must be an integer from ${MIN_QUIET_PERIOD_SECONDS} to ${MAX_QUIET_PERIOD_SECONDS}`);
  }
  return { quietPeriodSeconds: quiet! };
}
