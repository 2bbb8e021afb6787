import { buildProfile, type MatchProfile } from './matching/index.js';
import type { Listing } from './listing.js';

export type ProfileSource = Pick<Listing, 'title' | 'description' | 'brand' | 'gtin' | 'mpn' | 'category' | 'specs' | 'priceUsd'>;

/** A listing's matching profile: the one mapping from listing fields to matching input. */
export function profileOfListing(l: ProfileSource): MatchProfile {
  return buildProfile({
    title: l.title, description: l.description, brand: l.brand, gtin: l.gtin, mpn: l.mpn,
    category: l.category, specs: l.specs,
    // A zero price means "not disclosed" (spec 2.5 zero_price): no evidence either way.
    priceUsd: l.priceUsd && !/^0+(\.0+)?$/.test(l.priceUsd) ? l.priceUsd : null,
  });
}
