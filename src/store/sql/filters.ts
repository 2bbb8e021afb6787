/** SQL text both store adapters run (plain SQL, `?` placeholders; the PostgreSQL adapter numbers them). */
import type { ListingFilter, PageSort, SortKey } from '../types.js';

export interface Where {
  sql: string;
  params: unknown[];
}

const like = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c)}%`;

/** Builds the WHERE clause of a listing filter over the `l` alias. One place for every query. */
export function whereOf(f: ListingFilter): Where {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (f.categoryLike) { parts.push("l.category_key LIKE ? ESCAPE '\\'"); params.push(like(f.categoryLike)); }
  if (f.categoryExact) { parts.push('l.category_key LIKE ?'); params.push(`%|${f.categoryExact.toLowerCase()}|%`); }
  if (f.brandLike) { parts.push("lower(l.brand) LIKE ? ESCAPE '\\'"); params.push(like(f.brandLike)); }
  if (f.brandExact) { parts.push('lower(l.brand) = ?'); params.push(f.brandExact.toLowerCase()); }
  if (f.sources?.length) { parts.push(`l.source IN (${f.sources.map(() => '?').join(',')})`); params.push(...f.sources); }
  if (f.excludeSources?.length) { parts.push(`l.source NOT IN (${f.excludeSources.map(() => '?').join(',')})`); params.push(...f.excludeSources); }
  if (f.domain) { parts.push('(l.domain = ? OR l.domain LIKE ?)'); params.push(f.domain.toLowerCase(), `%.${f.domain.toLowerCase()}`); }
  if (f.countries?.length) { parts.push(`l.country_code IN (${f.countries.map(() => '?').join(',')})`); params.push(...f.countries); }
  if (f.inStock !== undefined) parts.push(f.inStock ? 'l.in_stock = 1' : '(l.in_stock = 0)');
  if (f.stockLevels?.length) { parts.push(`lower(l.stock_level) IN (${f.stockLevels.map(() => '?').join(',')})`); params.push(...f.stockLevels); }
  if (f.minPriceSgdMinor !== undefined) { parts.push('l.price_sgd_minor >= ?'); params.push(f.minPriceSgdMinor); }
  if (f.maxPriceSgdMinor !== undefined) { parts.push('l.price_sgd_minor <= ?'); params.push(f.maxPriceSgdMinor); }
  if (f.minDiscountPct !== undefined) { parts.push('l.discount_pct >= ? AND l.discount_pct > 0'); params.push(f.minDiscountPct); }
  if (f.minHistoryDiscountPct !== undefined) { parts.push('l.history_discount_pct >= ? AND l.history_discount_pct > 0'); params.push(f.minHistoryDiscountPct); }
  if (f.ids) { parts.push(`l.id IN (${f.ids.map(() => '?').join(',') || 'NULL'})`); params.push(...f.ids); }
  if (f.modifiedSince) { parts.push('l.changed_at >= ?'); params.push(f.modifiedSince); }
  if (f.excludeAccessories) parts.push('l.accessory = 0');
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}

/** ORDER BY for a sort key; ties are always broken by id so pages are stable. */
export function orderOf(sort: SortKey | PageSort, ranked: boolean): string {
  switch (sort) {
    case 'changed': return 'l.changed_at ASC, l.id ASC';
    case 'price_asc': return 'l.price_sgd_minor ASC, l.id ASC';
    case 'price_desc': return 'l.price_sgd_minor DESC, l.id DESC';
    case 'rating': return 'CAST(l.rating AS REAL) DESC NULLS LAST, l.id DESC';
    case 'reviews': return 'l.review_count DESC NULLS LAST, l.id DESC';
    case 'discount_desc': return 'l.discount_pct DESC, l.id DESC';
    case 'deal_desc': return 'l.history_discount_pct DESC, l.id DESC';
    case 'relevance': return ranked ? 'f.rank, l.id DESC' : 'l.updated_at DESC, l.id DESC';
    case 'newest': return 'l.updated_at DESC, l.id DESC';
  }
}
