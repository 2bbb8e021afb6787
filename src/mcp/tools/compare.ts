import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Listing } from '../../domain/listing.js';
import { resolveRef } from '../lookup.js';
import { money, numbered, presentProduct, productLine } from '../present.js';
import { guarded, ok } from '../results.js';
import { CurrencyArg, IntArg, Money, Product, ProductRef } from '../schemas.js';
import type { McpOptions, McpServices } from '../services.js';
import { READ_ONLY } from './annotations.js';
import { withFields } from '../../domain/with-fields.js';

const CompareArgs = z.object({
  ref: ProductRef,
  currency: CurrencyArg.optional().describe('also show every offer\'s price converted to this currency, to compare across markets'),
}).strict();

const Match = Product.extend({
  match_score: z.number().describe('0 to 1: how sure the catalog is that this is the same product'),
  match_class: z.enum(['exact', 'variant', 'bundle', 'accessory', 'different']),
  zero_price: z.boolean().describe('listed at a price of zero: treat the price as unknown'),
});
const Chosen = z.object({ id: z.number().int(), platform: z.string() });
const CompareOut = z.object({
  product: Product.describe('the listing asked about'),
  matches: z.array(Match).describe('the same product on other platforms, cheapest first (by SGD-normalized price)'),
  highlights: z.object({
    cheapest: Chosen.extend({ price: Money, price_sgd: z.string().nullable() }).nullable(),
    best_rated: Chosen.extend({ rating: z.number(), review_count: z.number().int().nullable() }).nullable(),
    fastest_shipping: Chosen.extend({ shipping_days: z.number().int() }).nullable(),
  }).describe('among the product and its matches; null when none of them has the figure'),
});

const HistoryArgs = z.object({
  ref: ProductRef,
  days: IntArg('days', 1, 365, 30, 'the window, in days ending now'),
}).strict();

const Point = z.object({ price: z.string(), at: z.string().describe('ISO time of the observation') });
const Stats = { min: z.string(), max: z.string(), avg: z.string(), data_points: z.number().int() };
const HistoryOut = z.object({
  product: z.object({ id: z.number().int(), title: z.string(), platform: z.string() }),
  currency: z.string().describe('every price below is in it: the listing\'s own currency'),
  days: z.number().int(),
  current_price: z.string(),
  stats: z.object(Stats).nullable().describe('over the window; null when it holds no observation'),
  lowest: Point.nullable().describe('the lowest price of the window and when it was first seen'),
  trend: z.object({
    direction: z.enum(['up', 'down', 'stable']), change_pct: z.number().describe('from the first observation of the window to the last, percent'),
    from: Point, to: Point,
  }).nullable(),
  last_change: z.enum(['up', 'down', 'stable']).nullable().describe('direction of the listing\'s latest price change, whenever it was'),
  daily: z.array(z.object({ day: z.string().describe('YYYY-MM-DD, UTC'), ...Stats })).describe('oldest day first'),
});

function pick(l: Listing | null) {
  return l ? { id: l.id, platform: l.source } : null;
}

export function registerCompareTools(server: McpServer, s: McpServices, opts: McpOptions): void {
  server.registerTool('compare_offers', {
    title: 'Compare offers across platforms',
    description: 'Every platform\'s offer for the same product as a listing, cheapest first, with highlights (cheapest, best rated, fastest shipping) '
      + 'and each offer\'s decision signals (confidence_score, availability_prediction, competitor_count, data_freshness). '
      + 'Use it before recommending where to buy; pass the integer id from search_products (or a UUID or SKU).',
    inputSchema: CompareArgs, outputSchema: CompareOut, annotations: withFields(READ_ONLY, { title: 'Compare offers across platforms' }),
  }, guarded('compare_offers', async (a) => {
    const { listing } = await resolveRef(s, a.ref);
    const [cmp, view] = await Promise.all([s.compare.comparison(listing, {}, a.currency), s.products.view(listing, a.currency)]);
    const h = s.compare.highlights([listing, ...cmp.matches.map((m) => m.view.listing)]);
    const highlights = {
      cheapest: h.cheapest && withFields(pick(h.cheapest)!, { price: { amount: h.cheapest.price, currency: h.cheapest.currency }, price_sgd: h.cheapest.priceSgd }),
      best_rated: h.bestRated && withFields(pick(h.bestRated)!, { rating: Number(h.bestRated.rating), review_count: h.bestRated.reviewCount }),
      fastest_shipping: h.fastestShipping && withFields(pick(h.fastestShipping)!, { shipping_days: h.fastestShipping.shippingDays! }),
    };
    const matches = cmp.matches.map((m) => withFields(presentProduct(m.view), { match_score: m.matchScore, match_class: m.matchClass, zero_price: m.zeroPrice }));
    const notes = [
      h.cheapest && `cheapest: #${h.cheapest.id} ${money({ amount: h.cheapest.price, currency: h.cheapest.currency })} on ${h.cheapest.source}`,
      h.bestRated && `best rated: #${h.bestRated.id} ${h.bestRated.rating} on ${h.bestRated.source}`,
      h.fastestShipping && `fastest shipping: #${h.fastestShipping.id} ${h.fastestShipping.shippingDays} days on ${h.fastestShipping.source}`,
    ].filter(Boolean).join('; ');
    const text = `Asked: ${productLine(view)}\n`
      + (cmp.matches.length ? `${cmp.matches.length} other offer(s), cheapest first:\n${numbered(cmp.matches.map((m) => `${productLine(m.view)}, match ${m.matchScore}`))}` : 'No other platform lists this product.')
      + (notes ? `\nHighlights: ${notes}.` : '');
    return ok({ product: presentProduct(view), matches, highlights }, text);
  }, opts.onError));

  server.registerTool('price_history', {
    title: 'Price history',
    description: 'A listing\'s prices over the last `days` days (default 30, up to 365): min, max and average, the lowest price and when, '
      + 'the trend from the first to the last observation, and daily figures. Use it to judge whether the current price is a good one. '
      + 'Prices are in the listing\'s own currency.',
    inputSchema: HistoryArgs, outputSchema: HistoryOut, annotations: withFields(READ_ONLY, { title: 'Price history' }),
  }, guarded('price_history', async (a) => {
    const { listing: l } = await resolveRef(s, a.ref);
    const w = await s.history.window(l, a.days);
    const stats = w.stats && { min: w.stats.min, max: w.stats.max, avg: w.stats.avg, data_points: w.stats.dataPoints };
    const trend = w.change && { direction: w.change.direction, change_pct: w.change.pct, from: w.change.from, to: w.change.to };
    const text = stats
      ? `#${l.id} ${l.title} on ${l.source}, last ${a.days} days in ${l.currency}: now ${l.price}; min ${stats.min}, avg ${stats.avg}, max ${stats.max} `
        + `(${stats.data_points} observations); lowest ${w.lowest!.price} on ${w.lowest!.at.slice(0, 10)}; `
        + `${trend!.direction} ${trend!.change_pct}% over the window.`
      : `#${l.id} ${l.title}: no price observed in the last ${a.days} days (now ${l.price} ${l.currency}); ask for more days.`;
    return ok({
      product: { id: l.id, title: l.title, platform: l.source }, currency: l.currency, days: a.days, current_price: l.price,
      stats, lowest: w.lowest, trend, last_change: l.priceTrend,
      daily: w.daily.map((d) => ({ day: d.day, min: d.min, max: d.max, avg: d.avg, data_points: d.dataPoints })),
    }, text);
  }, opts.onError));
}
