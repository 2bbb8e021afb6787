import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { dropThreshold, evaluate, step, type AlertRecord } from '../../src/domain/alerts.js';
import type { CatalogEvent, ListingSnapshot } from '../../src/domain/events.js';

/** The alert rules alone (domain/alerts.ts): conditions, re-arm, expiry, order within a batch. */
const listing: ListingSnapshot = {
  id: 1, uuid: 'u', title: 't', price: '100.00', currency: 'SGD', priceSgd: '100.00', source: 's', category: null, categoryPath: null,
  countryCode: 'SG', inStock: true, url: 'https://x', updatedAt: 't',
};
let n = 10;
const price = (p: string, at = `2026-11-20T12:${String(n % 60).padStart(2, '0')}:00.000Z`, currency: 'SGD' | 'USD' = 'SGD'): CatalogEvent => ({
  id: ++n, listingId: 1, createdAt: at,
  change: { kind: 'price_change', listing: { ...listing, price: p, currency }, oldPrice: '0', newPrice: p, oldPriceSgd: null, changePct: -1 },
});
const stock = (from: boolean | null, to: boolean | null): CatalogEvent => ({
  id: ++n, listingId: 1, createdAt: '2026-11-20T12:00:00.000Z',
  change: { kind: 'stock_change', listing: { ...listing, inStock: to }, oldInStock: from, newInStock: to, oldStockLevel: null, newStockLevel: null },
});
const alert = (over: Partial<AlertRecord> = {}): AlertRecord => ({
  id: 'a', accountId: 1, listingId: 1, condition: { type: 'price_at_or_below', target: '90.00', currency: 'SGD' }, rearm: null, expiresAt: null,
  state: 'armed', fireCount: 0, lastFiredAt: null, fromEventId: 0, createdAt: 't', updatedAt: 't', ...over,
});
const rates = shippedRates();

describe('conditions', () => {
  it('price_at_or_below: at the target fires, a cent above does not; a stock change never does', () => {
    expect(step(alert(), price('90.00'), rates).fired).toBe(true);
    expect(step(alert(), price('90.01'), rates).fired).toBe(false);
    expect(step(alert(), stock(false, true), rates).fired).toBe(false);
  });

  it('drop_percent: the threshold is exact and inclusive', () => {
    const c = { type: 'drop_percent' as const, percent: '12.5', basePrice: '99.99', baseCurrency: 'SGD' as const };
    expect(dropThreshold(c)).toBe('87.49125');
    expect(step(alert({ condition: c }), price('87.49'), rates).fired).toBe(true);
    expect(step(alert({ condition: c }), price('87.50'), rates).fired).toBe(false);
  });

  it('back_in_stock: only a change into stock from out of stock or unknown', () => {
    const a = alert({ condition: { type: 'back_in_stock' } });
    expect(step(a, stock(false, true), rates).fired).toBe(true);
    expect(step(a, stock(null, true), rates).fired).toBe(true);
    expect(step(a, stock(true, true), rates).fired).toBe(false);
    expect(step(a, stock(true, false), rates).fired).toBe(false);
    expect(step(a, price('1.00'), rates).fired).toBe(false);
  });

  it('ignores changes logged before it was set and after it expired', () => {
    const e = price('10.00', '2026-11-20T12:30:00.000Z');
    expect(step(alert({ fromEventId: e.id }), e, rates).fired).toBe(false);
    expect(step(alert({ expiresAt: '2026-11-20T12:30:00.000Z' }), e, rates).fired).toBe(false);
    expect(step(alert({ expiresAt: '2026-11-20T12:30:00.001Z' }), e, rates).fired).toBe(true);
  });
});

describe('re-arm and order', () => {
  it('a batch is applied in log order: fire, re-arm above the target, fire again', () => {
    const a = alert({ rearm: { after: 'price_above_target' } });
    const ev = evaluate([price('89.00'), price('80.00'), price('95.00'), price('90.00')], new Map([[1, [a]]]), rates, randomUUID);
    expect(ev.firings.map((f) => f.firing.price)).toEqual(['89.00', '90.00']);
    expect(ev.updates).toEqual([{ id: 'a', state: 'rearming', lastFiredAt: expect.any(String), fireCount: 2 }]);
  });

  it('a quiet period counts from the last firing, by the changes\' own times', () => {
    const a = alert({ rearm: { quietPeriodSeconds: 600 } });
    const events = [price('89.00', '2026-11-20T13:00:00.000Z'), price('88.00', '2026-11-20T13:09:59.000Z'), price('87.00', '2026-11-20T13:10:00.000Z')];
    const ev = evaluate(events, new Map([[1, [a]]]), rates, randomUUID);
    expect(ev.firings.map((f) => f.firing.price)).toEqual(['89.00', '87.00']);
  });

  it('no re-arm rule: fired once and done', () => {
    const ev = evaluate([price('89.00'), price('95.00'), price('80.00')], new Map([[1, [alert()]]]), rates, randomUUID);
    expect(ev.firings).toHaveLength(1);
    expect(ev.updates[0].state).toBe('fired');
  });
});
