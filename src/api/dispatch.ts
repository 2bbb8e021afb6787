import type { IncomingMessage } from 'node:http';
import { isUuid } from '../domain/listing-id.js';

/**
 * Shared /v1 paths -> surface A or B (ARCHITECTURE.md "Shared /v1 paths"). One function decides,
 * used as a Fastify route constraint so each surface keeps its own schema and handler: a route of
 * a shared path declares `constraints: { surface: 'A' }` (or 'B').
 */
export type SharedSurface = 'A' | 'B';

const A_SEARCH_PARAMS = ['sort_by', 'price_min', 'price_max', 'platform', 'in_stock', 'include_facets'];
/** Sub-paths of /v1/products that are named routes of their own, never a product reference. */
const NAMED = new Set(['search', 'compare', 'best-price', 'trending', 'export', 'deals', 'bulk-lookup', 'ingest']);

/** Whether a path segment after /v1/products/ names a route of its own rather than a product. */
export const isNamedSubPath = (segment: string): boolean => NAMED.has(segment);

/** Named sub-paths that take POST only: a GET there is a wrong method (405), never a product reference. */
export const POST_ONLY_NAMED: ReadonlySet<string> = new Set(['bulk-lookup', 'ingest']);

export function surfaceForRequest(path: string, query: URLSearchParams, override: string | undefined): SharedSurface {
  const forced = override?.trim().toUpperCase();
  if (forced === 'A' || forced === 'B') return forced;
  if (path === '/v1/products/search') return A_SEARCH_PARAMS.some((p) => query.has(p)) ? 'A' : 'B';
  if (path === '/v1/products/compare') return query.has('ids') && !query.has('product_id') ? 'B' : 'A';
  if (path === '/v1/categories') return query.has('currency') ? 'B' : 'A';
  const m = /^\/v1\/products\/([^/]+)(\/.*)?$/.exec(path);
  if (m && !NAMED.has(m[1])) {
    let ref = m[1];
    try {
      ref = decodeURIComponent(ref);
    } catch {
      // A malformed escape is no UUID.
    }
    return isUuid(ref) ? 'B' : 'A';
  }
  return 'A';
}

/** The rule above for one shared path, in words (the reference prints it with the path's operation). */
export function dispatchRule(path: string): string {
  const header = ' A request header `Catalog-Surface: A` or `B` overrides the rule.';
  if (path === '/v1/products/search') return `Surface A when an A-only parameter is present (${A_SEARCH_PARAMS.join(', ')}); otherwise surface B.${header}`;
  if (path === '/v1/products/compare') return `Surface B when \`ids\` is given without \`product_id\`; otherwise surface A.${header}`;
  if (path === '/v1/categories') return `Surface B when \`currency\` is given; otherwise surface A.${header}`;
  return `By the product reference: a UUID is surface B; an integer id or a SKU is surface A. Named sub-paths (${[...NAMED].join(', ')}) are routes of their own.${header}`;
}

function parts(url: string): { path: string; query: URLSearchParams } {
  const q = url.indexOf('?');
  return { path: q < 0 ? url : url.slice(0, q), query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
}

export function surfaceOfRequest(req: Pick<IncomingMessage, 'url' | 'headers'>): SharedSurface {
  const { path, query } = parts(req.url ?? '/');
  const header = req.headers['catalog-surface'];
  return surfaceForRequest(path, query, typeof header === 'string' ? header : undefined);
}

export const surfaceConstraint = {
  name: 'surface',
  storage() {
    const handlers = new Map<string, unknown>();
    return {
      get: (k: string) => (handlers.get(k) ?? null) as never,
      set: (k: string, v: unknown) => { handlers.set(k, v); },
    };
  },
  deriveConstraint(req: IncomingMessage): SharedSurface {
    return surfaceOfRequest(req);
  },
  mustMatchWhenDerived: false,
  validate() {},
};
