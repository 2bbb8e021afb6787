import { z } from 'zod';
import { COUNTRY_CURRENCY, CURRENCIES, type Currency } from '../domain/currencies.js';

/**
 * The MCP tools' argument and result schemas. Written for a model choosing and calling a tool:
 * every argument says its unit and default, and a wrong one is refused with the argument named
 * (arguments are closed: a misspelt name is an error, never silently ignored).
 */

const CODES = CURRENCIES as [Currency, ...Currency[]];

// ---- arguments ----

export const ProductRef = z.string().trim().min(1, 'ref must not be empty').max(200, 'ref must be at most 200 characters')
  .describe('the product: its integer id (e.g. "123", from search_products), its UUID, or its platform SKU');

export const CurrencyArg = z.enum(CODES, { error: `currency must be one of ${CURRENCIES.join(', ')}` })
  .describe(`ISO currency code (${CURRENCIES.join(', ')})`);

/** Markets the catalog may hold listings in, and SEA for the six South-East Asian ones. */
export const MARKETS: string[] = [...Object.keys(COUNTRY_CURRENCY), 'SEA'];

export const CountriesArg = z.array(z.enum(MARKETS, { error: `each country must be one of ${MARKETS.join(', ')}` }))
  .min(1, 'country needs at least one code; omit it for every market').max(MARKETS.length)
  .describe('markets to search, two-letter codes (SG, MY, TH, PH, VN, ID, US, ...); SEA = SG, MY, TH, PH, VN and ID. Omit for every market');

export const Price = (name: string, what: string) => z.number({ error: `${name} must be a number` })
  .min(0, `${name} must be 0 or more`).max(1e12, `${name} must be at most 10^12`).describe(what);

export const IntArg = (name: string, min: number, max: number, dflt: number, what: string) => z
  .number({ error: `${name} must be a whole number from ${min} to ${max}` })
  .int(`${name} must be a whole number from ${min} to ${max}`)
  .min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`)
  .default(dflt).describe(`${what}, ${min} to ${max} (default ${dflt})`);

export const Text = (name: string, max: number, what: string) => z.string().trim()
  .min(1, `${name} must not be empty; omit it instead`).max(max, `${name} must be at most ${max} characters`).describe(what);

// ---- results ----

export const Money = z.object({
  amount: z.string().describe('exact decimal text in the currency\'s own decimals (none for IDR, JPY, VND)'),
  currency: z.string(),
});

export const Freshness = z.enum(['fresh', 'recent', 'stale', 'very_stale']);

/** The decision signals a listing view carries (catalog/listing-views.ts); nothing else is claimed. */
export const Signals = z.object({
  confidence_score: z.number().describe('0 to 1: how far the record can be trusted (0.9+ high, 0.7+ medium, 0.5+ lower)'),
  availability_prediction: z.enum(['in_stock', 'low_stock', 'out_of_stock', 'unknown']),
  competitor_count: z.number().int().nullable().describe('other platforms\' listings of the same product; null when not read'),
  data_freshness: Freshness.describe('fresh < 24 h, recent < 7 days, stale < 30 days, very_stale older'),
  is_available: z.boolean().describe('false when out of stock or when the data is very stale'),
  last_checked: z.string().describe('ISO time the platform was last observed'),
  price_trend: z.enum(['up', 'down', 'stable']).nullable().describe('direction of the last price change'),
});

export const Product = z.object({
  id: z.number().int().describe('integer id: pass it to the other tools'),
  uuid: z.string(),
  sku: z.string(),
  title: z.string(),
  brand: z.string().nullable(),
  category: z.string().nullable(),
  platform: z.string().describe('the retail platform key, e.g. shopee_sg'),
  country: z.string().describe('two-letter market code'),
  price: Money.describe('the platform\'s own price'),
  converted_price: Money.nullable().describe('the price in the currency asked for; null when none was asked'),
  price_sgd: z.string().nullable().describe('the price normalized to SGD at ingest'),
  original_price: z.string().nullable().describe('the platform\'s struck-through price, in the listing\'s currency'),
  in_stock: z.boolean().nullable(),
  rating: z.number().nullable().describe('0 to 5'),
  review_count: z.number().int().nullable(),
  shipping_days: z.number().int().nullable(),
  url: z.string().describe('the merchant\'s page'),
  affiliate_url: z.string().nullable().describe('tracked link to hand a shopper over with, when the platform has one'),
  image_url: z.string().nullable(),
  gtin: z.string().nullable(),
  signals: Signals,
});

export const Variant = z.object({
  variant_id: z.string(), name: z.string(), price: Money, stock_status: z.string(), specs: z.record(z.string(), z.unknown()),
});

export const ProductDetail = Product.extend({
  description: z.string().nullable(),
  category_path: z.array(z.string()).nullable(),
  mpn: z.string().nullable(),
  specs: z.record(z.string(), z.unknown()).nullable(),
  variants: z.array(Variant),
});

export const Offer = z.object({
  id: z.number().int(), platform: z.string(), price: Money, converted_price: Money.nullable(),
});

export const Page = {
  total: z.number().int().describe('how many match in all'),
  offset: z.number().int(),
  has_more: z.boolean().describe('true when offset + items returned < total: call again with a larger offset'),
};

export const Category: z.ZodType<CategoryOut> = z.lazy(() => z.object({
  name: z.string(), slug: z.string().describe('pass it as category to the search tools'), path: z.array(z.string()),
  count: z.number().int().describe('listings in this category and below'),
  subcategories: z.number().int().describe('how many children it has, shown or not'),
  children: z.array(Category),
}));
export interface CategoryOut { name: string; slug: string; path: string[]; count: number; subcategories: number; children: CategoryOut[] }
