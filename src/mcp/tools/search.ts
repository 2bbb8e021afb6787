import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Deal as CatalogDeal } from '../../catalog/catalog-service.js';
import type { SortKey } from '../../store/types.js';
import { defined, marketsOf, priceBounds } from '../lookup.js';
import { numbered, presentProduct, productLine } from '../present.js';
import { guarded, ok, ToolRefusal } from '../results.js';
import { CountriesArg, CurrencyArg, IntArg, Page, Price, Product, Text } from '../schemas.js';
import type { McpOptions, McpServices } from '../services.js';
import { READ_ONLY } from './annotations.js';
import { withFields } from '../../domain/with-fields.js';

const SORTS = ['relevance', 'price_asc', 'price_desc', 'newest', 'rating'] as const;

const Category = Text('category', 200, 'category name or slug (see the categories tool), case-insensitive partial match at any level of the path');

const SearchArgs = z.object({
  query: Text('query', 500, 'keywords, e.g. "galaxy s24 256gb"; every word must match the title, brand or category. Omit to browse by filters alone (newest first)').optional(),
  country: CountriesArg.optional(),
  min_price: Price('min_price', 'lowest price, inclusive, in `currency` (SGD when currency is omitted)').optional(),
  max_price: Price('max_price', 'highest price, inclusive, in `currency` (SGD when currency is omitted)').optional(),
  currency: CurrencyArg.optional().describe('currency of min_price/max_price, and results also show converted_price in it; omit for SGD bounds and no conversion'),
  brand: Text('brand', 200, 'brand, case-insensitive partial match').optional(),
  category: Category.optional(),
  in_stock: z.boolean({ error: 'in_stock must be true or false' }).optional().describe('true: only listings in stock; false: only out of stock; omit for both'),
  sort: z.enum(SORTS, { error: `sort must be one of ${SORTS.join(', ')}` }).default('relevance')
    .describe('relevance (default; products rank above their accessories), price_asc, price_desc, newest, rating'),
  limit: IntArg('limit', 1, 50, 10, 'results to return'),
  offset: IntArg('offset', 0, 10000, 0, 'results to skip, to page on'),
}).strict();

const SearchOut = z.object({ query: z.string().nullable(), ...Page, items: z.array(Product) });

const BestPriceArgs = z.object({
  query: Text('query', 500, 'the product\'s name, e.g. "iphone 15 pro 256gb"; accessories are left out unless the name asks for one ("... case")'),
  country: CountriesArg.optional(),
  category: Category.optional(),
  currency: CurrencyArg.optional().describe('also show the price converted to this currency'),
}).strict();

const BestPriceOut = z.object({ query: z.string(), product: Product });

const DealsArgs = z.object({
  country: CountriesArg.optional(),
  category: Category.optional(),
  min_discount_pct: z.number({ error: 'min_discount_pct must be a number from 0 to 100' }).min(0, 'min_discount_pct must be 0 or more')
    .max(100, 'min_discount_pct must be at most 100').default(10)
    .describe('how far below its own 90-day median price a listing must be, percent 0 to 100 (default 10)'),
  exclude_fake_discounts: z.boolean({ error: 'exclude_fake_discounts must be true or false' }).default(false)
    .describe('true: leave out deals whose original price was above every price of the last 90 days (fake_discount true); offset then counts the deals kept'),
  limit: IntArg('limit', 1, 50, 10, 'deals to return'),
  offset: IntArg('offset', 0, 10000, 0, 'deals to skip, to page on'),
}).strict();

const Deal = Product.extend({
  reference_price: z.string().nullable().describe('the listing\'s median price of its last 90 days, in its own currency'),
  discount_pct: z.number().describe('how far the price is below reference_price, percent'),
  original_price: z.string().nullable().describe('the advertised original ("was") price, in the listing\'s own currency'),
  discount_started_at: z.string().nullable().describe('when the current run of prices below original_price began; null when not discounted or before the history'),
  lowest_price_30d_before_discount: z.string().nullable().describe('lowest price in the 30 days before the discount began (EU Omnibus), own currency; null when unknown'),
  fake_discount: z.boolean().nullable().describe('true when original_price is above every price of the last 90 days; null when not discounted or the history is too short to say'),
});
const DealsOut = z.object({ ...Page, items: z.array(Deal) });

/** What the honest-deal check adds to a deal's line: the Omnibus low and the flag, with their numbers. */
function checkText(d: CatalogDeal): string {
  const c = d.check;
  if (!c) return '';
  const cur = d.view.listing.currency;
  const low = c.priorLow === null ? '' : `; lowest in the 30 days before the discount ${c.priorLow} ${cur}`;
  const flag = c.originalNeverCharged ? `; FAKE DISCOUNT: original ${d.view.listing.originalPrice} ${cur} is above every price of the last 90 days (highest ${c.highestRecent} ${cur})` : '';
  return low + flag;
}

const more = (offset: number, shown: number, total: number) => (offset + shown < total ? `\nMore: call again with offset ${offset + shown}.` : '');

export function registerSearchTools(server: McpServer, s: McpServices, opts: McpOptions): void {
  server.registerTool('search_products', {
    title: 'Search products',
    description: 'Keyword search over every platform\'s listings, with filters (market, price range in any currency, brand, category, stock). '
      + 'Use it to find candidates and their integer ids; then compare_offers, price_history or get_product on an id. '
      + 'Each result is one listing (one offer on one platform); prices are exact decimal strings.',
    inputSchema: SearchArgs, outputSchema: SearchOut, annotations: withFields(READ_ONLY, { title: 'Search products' }),
  }, guarded('search_products', async (a) => {
    const sort: SortKey = a.sort === 'relevance' && !a.query ? 'newest' : a.sort;
    const filter = defined({
      categoryLike: a.category, brandLike: a.brand, inStock: a.in_stock, countries: marketsOf(a.country),
      ...priceBounds(s.fx, a.min_price, a.max_price, a.currency ?? 'SGD'),
    });
    const r = await s.catalog.search({ text: a.query, filter, sort, limit: a.limit, offset: a.offset }, { currency: a.currency });
    const head = r.total === 0
      ? `No listing matches${a.query ? ` "${a.query}"` : ''} with these filters: use fewer words or drop a filter.`
      : `${r.total} listings match${a.query ? ` "${a.query}"` : ''}; ${r.items.length} from ${a.offset + 1}:`;
    return ok(
      { query: a.query ?? null, total: r.total, offset: a.offset, has_more: a.offset + r.items.length < r.total, items: r.items.map(presentProduct) },
      [head, numbered(r.items.map(productLine))].filter(Boolean).join('\n') + more(a.offset, r.items.length, r.total),
    );
  }, opts.onError));

  server.registerTool('best_price', {
    title: 'Best price for a product name',
    description: 'The single cheapest listing (by SGD-normalized price) matching a product name, across platforms and markets. '
      + 'Use it for "where is X cheapest?"; use search_products to see several candidates, compare_offers for every offer of one product.',
    inputSchema: BestPriceArgs, outputSchema: BestPriceOut, annotations: withFields(READ_ONLY, { title: 'Best price for a product name' }),
  }, guarded('best_price', async (a) => {
    const v = await s.catalog.bestPrice(a.query, defined({ categoryLike: a.category, countries: marketsOf(a.country) }));
    if (!v) throw new ToolRefusal(`No product matches "${a.query}"${a.category || a.country ? ' with this category or country' : ''}: use fewer or more general words, or drop a filter.`);
    const view = a.currency ? await s.products.view(v.listing, a.currency) : v;
    return ok({ query: a.query, product: presentProduct(view) }, `Cheapest for "${a.query}": ${productLine(view)}\n${view.listing.affiliateUrl ?? view.listing.url}`);
  }, opts.onError));

  server.registerTool('deals', {
    title: 'Current deals',
    description: 'Listings priced well below their own price history (at least min_discount_pct under the median of their last 90 days), '
      + 'biggest drop first. Use it for "what is on sale / a good deal right now", optionally in a market or category.',
    inputSchema: DealsArgs, outputSchema: DealsOut, annotations: withFields(READ_ONLY, { title: 'Current deals' }),
  }, guarded('deals', async (a) => {
    const filter = defined({ categoryLike: a.category, countries: marketsOf(a.country) });
    const r = await s.catalog.deals(filter, a.min_discount_pct, a.limit, a.offset, { excludeFlagged: a.exclude_fake_discounts });
    const items = r.items.map((d) => withFields(presentProduct(d.view), {
      reference_price: d.referencePrice, discount_pct: d.discountPct, original_price: d.view.listing.originalPrice,
      discount_started_at: d.check?.discountStartedAt ?? null, lowest_price_30d_before_discount: d.check?.priorLow ?? null, fake_discount: d.check?.originalNeverCharged ?? null,
    }));
    const lines = r.items.map((d) => `${productLine(d.view)}; ${d.discountPct}% under its 90-day median ${d.referencePrice ?? '?'} ${d.view.listing.currency}${checkText(d)}`);
    const head = r.total === 0 ? `No listing is ${a.min_discount_pct}% or more under its 90-day median here: lower min_discount_pct or drop a filter.` : `${r.total} deals; ${r.items.length} from ${a.offset + 1}:`;
    return ok({ total: r.total, offset: a.offset, has_more: a.offset + r.items.length < r.total, items }, [head, numbered(lines)].filter(Boolean).join('\n') + more(a.offset, r.items.length, r.total));
  }, opts.onError));
}
