import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { resolveRef } from '../lookup.js';
import { money, numbered, presentDetail, presentProduct, productLine } from '../present.js';
import { guarded, ok } from '../results.js';
import { CurrencyArg, IntArg, Money, Product, ProductDetail, ProductRef } from '../schemas.js';
import type { McpOptions, McpServices } from '../services.js';
import { READ_ONLY } from './annotations.js';
import { withFields } from '../../domain/with-fields.js';

const RESOLVED_AS = z.enum(['id', 'uuid', 'sku', 'gtin', 'url']).describe('which form the reference matched as');
const Currency = CurrencyArg.optional().describe('also show prices converted to this currency');

const GetArgs = z.object({ ref: ProductRef, currency: Currency }).strict();
const GetOut = z.object({
  resolved_as: RESOLVED_AS,
  product: ProductDetail,
  offer_count: z.number().int().describe('listings of this product across platforms, this one included (compare_offers lists them)'),
  cheapest_offer: z.object({ platform: z.string(), price: Money }).describe('the cheapest of them that is no accessory nor price outlier, in `currency` (SGD when omitted)'),
  lowest_rating: z.string().nullable(),
});

const BatchArgs = z.object({
  refs: z.array(ProductRef, { error: 'refs must be a list of product references' }).min(1, 'refs needs at least one reference')
    .max(50, 'refs takes at most 50 references; split the list').describe('1 to 50 references: integer ids, UUIDs, SKUs, GTIN/EAN/UPC barcodes or product URLs, in any mix'),
  currency: Currency,
}).strict();
const BatchOut = z.object({
  results: z.array(z.object({ ref: z.string(), resolved_as: RESOLVED_AS, product: Product })).describe('in the order asked, each reference once'),
  not_found: z.array(z.string()).describe('references no product has'),
});

const SimilarArgs = z.object({ ref: ProductRef, limit: IntArg('limit', 1, 20, 8, 'similar products to return') }).strict();
const SimilarOut = z.object({
  product: z.object({ id: z.number().int(), title: z.string() }),
  items: z.array(Product),
});

export function registerProductTools(server: McpServer, s: McpServices, opts: McpOptions): void {
  server.registerTool('get_product', {
    title: 'Product detail',
    description: 'Everything about one listing: description, specs, variants, signals, links, and how many platforms sell the same product with the cheapest of them. '
      + 'Takes an integer id (from search_products), a UUID or a platform SKU; GTIN barcodes and product URLs are not lookup keys yet (search by name instead).',
    inputSchema: GetArgs, outputSchema: GetOut, annotations: withFields(READ_ONLY, { title: 'Product detail' }),
  }, guarded('get_product', async (a) => {
    const r = await resolveRef(s, a.ref);
    const d = await s.products.skuDetail(r.listing, a.currency);
    const cheapest = { platform: d.cheapest.source, price: d.cheapest.price };
    return ok(
      { resolved_as: r.form, product: presentDetail(d.product), offer_count: d.merchants.length, cheapest_offer: cheapest, lowest_rating: d.lowestRating },
      `${productLine(d.product)}\n${d.product.listing.affiliateUrl ?? d.product.listing.url}\n`
        + `Sold on ${d.merchants.length} listing(s); cheapest ${money(cheapest.price)} on ${cheapest.platform}. compare_offers lists every offer.`,
    );
  }, opts.onError));

  server.registerTool('batch_lookup', {
    title: 'Look up several products',
    description: 'Several products at once by reference (integer ids, UUIDs, SKUs, barcodes or product URLs, up to 50): one call instead of many get_product calls '
      + 'when you already hold the references. References no product has are listed in not_found, not an error.',
    inputSchema: BatchArgs, outputSchema: BatchOut, annotations: withFields(READ_ONLY, { title: 'Look up several products' }),
  }, guarded('batch_lookup', async (a) => {
    const refs = [...new Set(a.refs)];
    // One batched read per reference form (catalog/id-resolver.ts), however many references.
    const resolved = await s.products.resolveMany(refs);
    const found = refs.flatMap((ref, i) => (resolved[i] ? [{ ref, r: resolved[i] }] : []));
    const views = await Promise.all(found.map(({ r }) => s.products.view(r.listing, a.currency)));
    const notFound = refs.filter((_, i) => !resolved[i]);
    return ok(
      { results: found.map(({ ref, r }, i) => ({ ref, resolved_as: r.form, product: presentProduct(views[i]) })), not_found: notFound },
      `${found.length} of ${refs.length} found:\n${numbered(views.map(productLine))}${notFound.length ? `\nNot found: ${notFound.join(', ')}` : ''}`,
    );
  }, opts.onError));

  server.registerTool('similar_products', {
    title: 'Similar products',
    description: 'Other products like this one (same brand and category first, ranked by shared title words): alternatives to suggest. '
      + 'The same product on other platforms is left out; compare_offers lists those.',
    inputSchema: SimilarArgs, outputSchema: SimilarOut, annotations: withFields(READ_ONLY, { title: 'Similar products' }),
  }, guarded('similar_products', async (a) => {
    const { listing } = await resolveRef(s, a.ref);
    const items = await s.catalog.similar(listing, a.limit);
    return ok(
      { product: { id: listing.id, title: listing.title }, items: items.map(presentProduct) },
      items.length ? `${items.length} products like #${listing.id} ${listing.title}:\n${numbered(items.map(productLine))}` : `Nothing similar to #${listing.id} ${listing.title} (no other product of its brand or category).`,
    );
  }, opts.onError));
}
