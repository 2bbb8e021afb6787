/** SQL both store adapters run for bulk lookups, brand counts and filter facets (`?` placeholders; the PostgreSQL adapter numbers them). */
import { AVAILABILITY_VALUES } from '../../domain/facets.js';
import type { LookupKey } from '../types.js';

/** The listings column of each lookup key (a closed list: the name goes into SQL text). */
export const LOOKUP_COLUMN: Readonly<Record<LookupKey, string>> = { uuid: 'uuid', sku: 'sku', gtin: 'gtin', url: 'url' };

/**
 * Every brand of the listings `where` keeps (over the `l` alias; `TRUE` or `1` for all), with its
 * count, most first: spellings that differ in (ASCII) letter case count as one brand, named by its
 * most common spelling. Columns `name`, `count`.
 */
export function brandCountsSql(where: string): string {
  return `WITH spelled AS (
    SELECT lower(l.brand) AS k, l.brand AS name, count(*) AS n FROM listings l WHERE l.brand IS NOT NULL AND ${where} GROUP BY lower(l.brand), l.brand
  ), ranked AS (
    SELECT name, sum(n) OVER (PARTITION BY k) AS total, row_number() OVER (PARTITION BY k ORDER BY n DESC, name) AS rn FROM spelled
  )
  SELECT name, CAST(total AS BIGINT) AS count FROM ranked WHERE rn = 1 ORDER BY total DESC, name`;
}

/**
 * The availability facet's counts as select expressions over the `l` alias, one column per value
 * of AVAILABILITY_VALUES: in_stock and out_of_stock by the stock flag (as the filter reads it),
 * preorder and discontinued by the stock level.
 */
export const AVAILABILITY_COUNTS = AVAILABILITY_VALUES.map((v) => {
  const test = v === 'in_stock' ? 'l.in_stock = 1' : v === 'out_of_stock' ? 'l.in_stock = 0' : `lower(l.stock_level) = '${v}'`;
  return `count(CASE WHEN ${test} THEN 1 END) AS ${v}`;
}).join(', ');
