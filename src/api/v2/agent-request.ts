import { createHash } from 'node:crypto';
import Big from 'big.js';
import type { Static } from 'typebox';
import type { AgentSearch } from '../../catalog/agent-service.js';
import type { FxService } from '../../catalog/fx-service.js';
import { interpretAgentQuery, type StatedPrice } from '../../domain/agent-query.js';
import type { Currency } from '../../domain/currencies.js';
import { invalidInput } from '../../http/request-error.js';
import type { ListingFilter, SortKey } from '../../store/types.js';
import { clean } from '../params.js';
import type { AgentSearchQuery } from './agent-schemas.js';
import type { SessionContext } from './session.js';

/**
 * Agent search's parameters, its natural-language q and the X-Session-Context header, combined by
 * one precedence (docs/api.md, V2 agent endpoints): a query parameter wins; the session fills what
 * the query leaves unset; excluded sources of both are excluded; price phrases in q fill price
 * bounds the parameters leave unset.
 */

const SORTS: Record<Static<typeof AgentSearchQuery>['sort_by'], SortKey> = {
  relevance: 'relevance', price_asc: 'price_asc', price_desc: 'price_desc', newest: 'newest', highest_rated: 'rating', most_reviewed: 'reviews',
};
const PLATFORM_KEY = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
/** Cursors go as deep as offsets do (spec 8.1). */
const MAX_POSITION = 10000;

/** "shopee_sg, Lazada_MY" -> platform keys, lower case; anything else is a 422 naming the field. */
export function sourceList(value: string | undefined, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  const keys = value.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const bad = keys.find((k) => !PLATFORM_KEY.test(k));
  if (bad !== undefined) throw invalidInput(['query', field], `${field} must be comma-separated platform keys, got "${bad}"`);
  if (keys.length > 50) throw invalidInput(['query', field], `${field} takes at most 50 platform keys`);
  return [...new Set(keys)];
}

export interface ResolvedSearch {
  /** The search, but for where it starts (`offset` or `cursor`) and what it adds. */
  search: Omit<AgentSearch, 'offset' | 'history'>;
  /** What the request came to, echoed as `applied`. */
  applied: {
    keywords: string; currency: Currency; min_price: string | null; max_price: string | null; source: string | null;
    preferred_sources: string[]; excluded_sources: string[]; sort_by: string;
  };
  /** Names the search the results come from: a cursor is good for this search only. */
  fingerprint: string;
}

const amountOf = (n: number) => new Big(String(n));

/** The tighter of two bounds: the larger lower bound, the smaller upper bound. */
function tighter(a: Big | null, b: Big | null, lower: boolean): Big | null {
  if (!a || !b) return a ?? b;
  return lower ? (a.gt(b) ? a : b) : (a.lt(b) ? a : b);
}

export function resolveAgentSearch(q: Static<typeof AgentSearchQuery>, session: SessionContext | null, fx: FxService): ResolvedSearch {
  const text = interpretAgentQuery(q.q);
  const currency: Currency = q.currency ?? session?.targetCurrency ?? 'SGD';
  const inCurrency = (p: StatedPrice | null) => (p ? new Big(fx.convertText(p.amount, p.currency ?? currency, currency)) : null);
  if (q.min_price !== undefined && q.max_price !== undefined && q.min_price > q.max_price) {
    throw invalidInput(['query', 'min_price'], `min_price (${q.min_price}) must not be greater than max_price (${q.max_price})`);
  }
  const budgetMin = q.budget_min ?? session?.budget?.min;
  const budgetMax = q.budget_max ?? session?.budget?.max;
  if (budgetMin !== undefined && budgetMax !== undefined && budgetMin > budgetMax) {
    const origin = (own: number | undefined) => (own === undefined ? ', from X-Session-Context' : '');
    throw invalidInput(['query', 'budget_min'],
      `budget_min (${budgetMin}${origin(q.budget_min)}) must not be greater than budget_max (${budgetMax}${origin(q.budget_max)})`);
  }
  const priceMin = q.min_price !== undefined ? amountOf(q.min_price) : inCurrency(text.minPrice);
  const priceMax = q.max_price !== undefined ? amountOf(q.max_price) : inCurrency(text.maxPrice);
  const lo = tighter(priceMin, budgetMin === undefined ? null : amountOf(budgetMin), true);
  const hi = tighter(priceMax, budgetMax === undefined ? null : amountOf(budgetMax), false);

  const source = q.source?.trim().toLowerCase() || undefined;
  const excluded = [...new Set([...(sourceList(q.excluded_sources, 'excluded_sources') ?? []), ...(session?.excludedSources ?? [])])];
  const preferred = (sourceList(q.preferred_sources, 'preferred_sources') ?? session?.preferredSources ?? []).filter((s) => !excluded.includes(s));
  const filter: ListingFilter = clean({
    sources: source ? [source] : undefined,
    excludeSources: excluded.length ? excluded : undefined,
    inStock: q.availability,
    minPriceSgdMinor: lo ? fx.toSgdMinor(lo.toFixed(), currency) : undefined,
    maxPriceSgdMinor: hi ? fx.toSgdMinor(hi.toFixed(), currency) : undefined,
  });
  const sort = SORTS[q.sort_by];
  const keywords = text.keywords;
  return {
    search: { text: keywords || undefined, filter, sort, preferred, limit: q.limit, currency },
    applied: {
      keywords, currency, min_price: lo?.toFixed() ?? null, max_price: hi?.toFixed() ?? null, source: source ?? null,
      preferred_sources: preferred, excluded_sources: excluded, sort_by: q.sort_by,
    },
    fingerprint: createHash('sha256').update(JSON.stringify([keywords, filter, sort, preferred])).digest('base64url').slice(0, 16),
  };
}

/** The opaque cursor: base64url of `{"o": position, "f": fingerprint}`. */
export function encodeAgentCursor(position: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ o: position, f: fingerprint })).toString('base64url');
}

/** A cursor's position; 422 naming `cursor` when it is not one of ours or was issued for another search. */
export function decodeAgentCursor(text: string, fingerprint: string): number {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    // malformed: refused below
  }
  const c = parsed as { o?: unknown; f?: unknown } | null;
  if (!c || typeof c !== 'object' || !Number.isSafeInteger(c.o) || (c.o as number) < 0 || (c.o as number) > MAX_POSITION || typeof c.f !== 'string') {
    throw invalidInput(['query', 'cursor'], 'cursor is malformed; pass next_cursor exactly as received');
  }
  if (c.f !== fingerprint) throw invalidInput(['query', 'cursor'], 'cursor was issued for another search (q, filters, sort or sources changed); start again without it');
  return c.o as number;
}

/** The cursor of the page after one that ended at `end`; null at the end or past the deepest position. */
export function nextAgentCursor(end: number, total: number, fingerprint: string): string | null {
  return end < total && end <= MAX_POSITION ? encodeAgentCursor(end, fingerprint) : null;
}
