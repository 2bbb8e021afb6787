import { isAccessoryListing } from './accessory.js';
import { sgdMinor } from './listing-columns.js';

/**
 * What the cheapest-offer rule reads of a listing: its accessory flag as the store keeps it
 * (written with the listing by this same rule), or what decides it.
 */
export type Offer = { id: number; priceSgd: string | null }
  & ({ accessory: boolean } | { accessory?: undefined; title: string; categoryPath: readonly string[] | null; category: string | null });

const isAccessory = (m: Offer) => (m.accessory === undefined ? isAccessoryListing(m) : m.accessory);

/**
 * The offer a match group's cheapest price is (docs/ranking.md): the cheapest member that is
 * neither an accessory (when the group has any other member) nor a price outlier, less than a
 * quarter of the median SGD price of those members: a case or a part listed among the phones it
 * fits must not be the phone's cheapest price. Prices are compared in integer SGD cents; members
 * without an SGD price come last. `members` is never empty; the answer is one of them.
 */
export function cheapestOffer<T extends Offer>(members: readonly T[]): T {
  const products = members.filter((m) => !isAccessory(m));
  const pool = products.length ? products : [...members];
  const cents = new Map(pool.map((m) => [m, m.priceSgd ? sgdMinor(m.priceSgd) : null]));
  const priced = pool.filter((m) => cents.get(m) !== null).sort((a, b) => cents.get(a)! - cents.get(b)! || a.id - b.id);
  if (!priced.length) return [...pool].sort((a, b) => a.id - b.id)[0];
  // The median as the sum of the two middle prices (one price twice for an odd count): 4p < median is 8p < lo + hi, in integers.
  const lo = cents.get(priced[(priced.length - 1) >> 1])!;
  const hi = cents.get(priced[priced.length >> 1])!;
  return priced.find((m) => 8 * cents.get(m)! >= lo + hi) ?? priced[0];
}
