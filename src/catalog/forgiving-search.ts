import type { TermGroup } from '../domain/search-text.js';
import { withFields } from '../domain/with-fields.js';
import type { Facets, FilterFacets, SearchQuery } from '../store/types.js';

export interface EnginePage<T> { items: T[]; total: number; facets?: Facets; filterFacets?: FilterFacets }

/**
 * A widened query (`forgivingQuery`) in relevance order (docs/search.md): the listings that match
 * every token exactly, ranked as the query without forgiveness ranks them, then the ones that need
 * a correction or completion (`exceptExact`), by their own rank. The total and facets count both.
 * `terms` are `q.terms`; `run` is one engine (the in-memory index or the store) answering one query.
 */
export async function forgivingPage<T>(q: SearchQuery, terms: TermGroup[], run: (q: SearchQuery) => Promise<EnginePage<T>>): Promise<EnginePage<T>> {
  const want = q.offset + q.limit;
  const exact = await run(withFields(q, { terms: terms.map((g) => ({ exact: g.exact, near: [] })), offset: 0, limit: want, facets: undefined, filterFacets: undefined }));
  const filled = exact.items.length >= want;
  const rest = filled ? null : await run(withFields(q, { exceptExact: true, offset: 0, limit: want - exact.items.length, facets: undefined, filterFacets: undefined }));
  // Every match counted in one more pass only when the two pages do not give the total, or facets are asked.
  const all = filled || q.facets || q.filterFacets ? await run(withFields(q, { offset: 0, limit: 0 })) : null;
  return {
    items: [...exact.items, ...(rest?.items ?? [])].slice(q.offset, want),
    total: all ? all.total : exact.total + rest!.total,
    facets: all?.facets,
    ...(all?.filterFacets ? { filterFacets: all.filterFacets } : {}),
  };
}
