import { checkDeal, DEAL_HISTORY_DAYS, isDiscounted, type DealCheck } from '../domain/honest-deal.js';
import type { Listing } from '../domain/listing.js';
import type { CatalogStore } from '../store/types.js';

const DAY = 86_400_000;

/** Candidates read per step while a page that leaves out flagged deals is filled. */
const MIN_STEP = 100;
const MAX_STEP = 500;

/**
 * The honest-deal check (domain/honest-deal.ts) of each discounted listing of a page, keyed by
 * listing id, in one history read for the whole page; listings that are not discounted are absent.
 */
export async function dealChecks(store: Pick<CatalogStore, 'observationsFor'>, listings: Listing[], now: Date): Promise<Map<number, DealCheck>> {
  const discounted = listings.filter(isDiscounted);
  const out = new Map<number, DealCheck>();
  if (!discounted.length) return out;
  const since = new Date(now.getTime() - DEAL_HISTORY_DAYS * DAY).toISOString();
  const history = await store.observationsFor([...new Set(discounted.map((l) => l.id))], since);
  for (const l of discounted) out.set(l.id, checkDeal(l, history.get(l.id) ?? [], now)!);
  return out;
}

/** A deal flagged by the rule: its original price was not charged in the last 90 days. */
export const flagged = (check: DealCheck | undefined): boolean => check?.originalNeverCharged === true;

export interface CheckedPage { listings: Listing[]; checks: Map<number, DealCheck>; total: number }

/**
 * A page of deals in the order `fetch` reads them, with their checks. When `excludeFlagged`,
 * flagged deals are left out and `offset` counts the deals kept: candidates are read from the
 * first, a step at a time (one history read per step), until the page is full. `total` is then
 * the deals matching less the flagged ones seen: exact once the last candidate was read, an upper
 * bound before.
 */
export async function checkedPage(
  store: Pick<CatalogStore, 'observationsFor'>,
  fetch: (limit: number, offset: number) => Promise<{ listings: Listing[]; total: number }>,
  limit: number, offset: number, excludeFlagged: boolean, now: Date,
): Promise<CheckedPage> {
  if (!excludeFlagged) {
    const r = await fetch(limit, offset);
    return { listings: r.listings, checks: await dealChecks(store, r.listings, now), total: r.total };
  }
  const step = Math.min(MAX_STEP, Math.max(MIN_STEP, limit + offset));
  const kept: Listing[] = [];
  const checks = new Map<number, DealCheck>();
  let skipped = 0;
  let flaggedSeen = 0;
  let at = 0;
  let total = 0;
  for (;;) {
    const r = await fetch(step, at);
    total = r.total;
    const read = await dealChecks(store, r.listings, now);
    for (const l of r.listings) {
      if (kept.length >= limit) return { listings: kept, checks, total: total - flaggedSeen };
      const check = read.get(l.id);
      if (flagged(check)) flaggedSeen++;
      else if (skipped < offset) skipped++;
      else {
        kept.push(l);
        if (check) checks.set(l.id, check);
      }
    }
    at += r.listings.length;
    if (r.listings.length < step || at >= r.total) return { listings: kept, checks, total: at - flaggedSeen };
  }
}
