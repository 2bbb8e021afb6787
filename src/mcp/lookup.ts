import type { FxService } from '../catalog/fx-service.js';
import type { Resolved } from '../catalog/id-resolver.js';
import { SEA_COUNTRIES, type Currency } from '../domain/currencies.js';
import type { ListingFilter } from '../store/types.js';
import { ToolRefusal } from './results.js';
import type { McpServices } from './services.js';

/** How a tool's arguments become the catalog's inputs; the rules themselves are the services'. */

/**
 * The listing a reference names (catalog/id-resolver.ts: integer id, UUID, SKU, GTIN/EAN/UPC with
 * its check digit, or a product URL), or a refusal saying what to pass instead.
 */
export async function resolveRef(s: McpServices, ref: string): Promise<Resolved> {
  const [r] = await s.products.resolveMany([ref]);
  if (r) return r;
  throw new ToolRefusal(`No product has the id, UUID, SKU, barcode or URL "${ref}". Check the reference, or find the product with search_products and pass its integer id.`);
}

/** Market codes with SEA expanded; undefined for every market. */
export function marketsOf(codes: string[] | undefined): string[] | undefined {
  if (!codes?.length) return undefined;
  return [...new Set(codes.flatMap((c) => (c === 'SEA' ? SEA_COUNTRIES : [c])))];
}

/** Price bounds in `currency` as the SGD-cent filter (converted by the rate table, as every surface does). */
export function priceBounds(fx: FxService, min: number | undefined, max: number | undefined, currency: Currency): Pick<ListingFilter, 'minPriceSgdMinor' | 'maxPriceSgdMinor'> {
  if (min !== undefined && max !== undefined && min > max) {
    throw new ToolRefusal(`min_price (${min}) is greater than max_price (${max}): swap them or leave one out.`);
  }
  return Object.assign(
    {},
    min !== undefined ? { minPriceSgdMinor: fx.toSgdMinor(min, currency) } : {},
    max !== undefined ? { maxPriceSgdMinor: fx.toSgdMinor(max, currency) } : {},
  );
}

/** The filter without members that were not given. */
export function defined(f: ListingFilter): ListingFilter {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as ListingFilter;
}
