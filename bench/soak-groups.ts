import type { SoakRequest, TrafficGroup } from './soak-traffic.js';

/** What the groups draw their requests from: real ids, UUIDs, SKUs and queries of the catalog. */
export interface SoakCorpus { ids: number[]; uuids: string[]; skus: string[]; queries: string[] }

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/** The read mix of the soak, by surface: each group cycles through its endpoints in turn. */
export function soakGroups(c: SoakCorpus): TrafficGroup[] {
  const at = <T>(list: T[], i: number) => list[(i * 7919) % list.length];
  const q = (i: number) => encodeURIComponent(c.queries[i % c.queries.length]);
  // A numeric SKU would be read as an id: SKU detail takes the others.
  const skus = c.skus.filter((s) => /\D/.test(s));
  const get = (path: string): SoakRequest => ({ method: 'GET', path });
  const rotate = (...make: Array<(i: number) => SoakRequest>) => (i: number) => make[i % make.length](Math.floor(i / make.length));
  return [
    {
      name: 'A', connections: 4, request: rotate(
        (i) => get(`/v1/search?q=${q(i)}&limit=20`),
        (i) => get(`/v1/products/${at(c.ids, i)}`),
        (i) => get(`/v1/products/${encodeURIComponent(at(skus, i))}`),
        (i) => get(`/v1/products/${at(c.ids, i)}/compare`),
        (i) => get(`/v1/deals?limit=20&offset=${(i % 5) * 20}`),
        (i) => get(`/v1/products/${at(c.ids, i)}/price-history`),
      ),
    },
    {
      name: 'B', connections: 2, request: rotate(
        (i) => get(`/v1/products/search?q=${q(i)}&limit=20&region=SEA`),
        (i) => get(`/v1/products/${at(c.uuids, i)}`),
      ),
    },
    {
      name: 'V2', connections: 3, request: rotate(
        (i) => get(`/v2/search?q=${q(i)}&limit=20&region=sea`),
        (i) => get(`/v2/agents/search?q=${q(i)}&limit=10&include_price_history=true`),
        (i) => ({ method: 'POST', path: '/v2/products/batch-details', body: JSON.stringify({ product_ids: Array.from({ length: 50 }, (_, k) => at(c.ids, i * 50 + k)) }) }),
      ),
    },
    {
      name: 'MCP', connections: 1, request: (i) => ({
        method: 'POST', path: '/mcp', headers: MCP_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_products', arguments: { query: c.queries[i % c.queries.length], limit: 20 } } }),
      }),
    },
  ];
}
