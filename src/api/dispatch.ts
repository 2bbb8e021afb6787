import type { IncomingMessage } from 'node:http';

/**
 * Shared /v1 paths -> surface A or B (ARCHITECTURE.md "Shared /v1 paths"). One function decides,
 * used as a Fastify route constraint so each surface keeps its own schema and handler.
 */
export type SharedSurface = 'A' | 'B';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const A_SEARCH_PARAMS = ['sort_by', 'price_min', 'price_max', 'platform', 'in_stock', 'include_facets'];

export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

export function surfaceForRequest(path: string, query: URLSearchParams, override: string | undefined): SharedSurface {
  const forced = override?.trim().toUpperCase();
  if (forced === 'A' || forced === 'B') return forced;
  if (path === '/v1/products/search') return A_SEARCH_PARAMS.some((p) => query.has(p)) ? 'A' : 'B';
  if (path === '/v1/products/compare') return query.has('ids') && !query.has('product_id') ? 'B' : 'A';
  if (path === '/v1/categories') return query.has('currency') ? 'B' : 'A';
  const m = /^\/v1\/products\/([^/]+)(\/.*)?$/.exec(path);
  if (m) return isUuid(decodeURIComponent(m[1])) ? 'B' : 'A';
  return 'A';
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
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const header = req.headers['catalog-surface'];
    return surfaceForRequest(q < 0 ? url : url.slice(0, q), new URLSearchParams(q < 0 ? '' : url.slice(q + 1)), typeof header === 'string' ? header : undefined);
  },
  mustMatchWhenDerived: false,
  validate() {},
};
