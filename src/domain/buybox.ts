import type { Currency } from './currencies.js';
import { freshnessOf } from './freshness.js';
import type { Listing } from './listing.js';
import { sgdMinor } from './listing-columns.js';
import { freshnessWeight } from './signals.js';

const DAY = 86_400_000;

/** A listing last checked longer ago than this is no offer: spec 2.5 presents it as unavailable. */
export const OFFER_MAX_AGE_DAYS = 30;

/** The earliest last check that still makes a listing an offer at `now` (ISO, as stored). */
export const offeredSince = (now: Date): string => new Date(now.getTime() - OFFER_MAX_AGE_DAYS * DAY).toISOString();

/** One offer of a match group, as the buy box reads it. */
export interface GroupOffer {
  listingId: number;
  /** Native price, exact decimal text. */
  price: string;
  currency: Currency;
  /** The SGD price in integer cents: how offers in different currencies are compared. */
  priceSgdMinor: number;
  lastCheckedAt: string;
}

/**
 * A match group as the buy box reads it, in one aggregate per group (CatalogStore.groupOffers):
 * its size, how many of its listings are offers, and the cheapest offer.
 */
export interface GroupOffers {
  /** Listings in the group, offers or not: competitor_count is size - 1. */
  size: number;
  /** Listings that count as offers (`isOffer`). */
  offers: number;
  /** The offer with the lowest SGD price; ties go to the latest checked, then the lowest id. Null without offers. */
  cheapest: GroupOffer | null;
}

/** A group member with what decides whether it is an offer. */
export interface GroupMember extends GroupOffer {
  inStock: boolean | null;
}

/**
 * An offer is a listing a shopper could buy now at a known price: not flagged out of stock,
 * checked within OFFER_MAX_AGE_DAYS (`since` = offeredSince(now)), and priced above zero.
 */
export function isOffer(m: Pick<GroupMember, 'inStock' | 'lastCheckedAt' | 'priceSgdMinor'>, since: string): boolean {
  return m.inStock !== false && m.lastCheckedAt >= since && m.priceSgdMinor > 0;
}

/** Orders offers as the buy box picks them: lowest SGD price, then the latest checked, then the lowest id. */
export function offerOrder(a: GroupOffer, b: GroupOffer): number {
  if (a.priceSgdMinor !== b.priceSgdMinor) return a.priceSgdMinor - b.priceSgdMinor;
  if (a.lastCheckedAt !== b.lastCheckedAt) return a.lastCheckedAt > b.lastCheckedAt ? -1 : 1;
  return a.listingId - b.listingId;
}

/**
 * The GroupOffers of a group's members: what PostgreSQL computes in SQL (store/sql/signals.ts)
 * and the embedded store with `offersOf` over its group index; tests hold both to it.
 */
export function groupOffersOf(members: GroupMember[], now: Date): GroupOffers {
  return offersOf(members, offeredSince(now));
}

/** groupOffersOf with the offers' earliest last check given (`offeredSince`), as the stores are asked. */
export function offersOf(members: GroupMember[], since: string): GroupOffers {
  let cheapest: GroupOffer | null = null;
  let offers = 0;
  for (const m of members) {
    if (!isOffer(m, since)) continue;
    offers++;
    const { inStock: _, ...offer } = m;
    if (!cheapest || offerOrder(offer, cheapest) < 0) cheapest = offer;
  }
  return { size: members.length, offers, cheapest };
}

/** The fields of a listing the buy box reads. */
export type BuyboxListing = Pick<Listing, 'id' | 'price' | 'currency' | 'priceSgd' | 'inStock' | 'lastCheckedAt'>;

/** A listing as an offer of its group, whether or not it counts as one. */
export function offerOfListing(l: BuyboxListing): GroupOffer {
  return { listingId: l.id, price: l.price, currency: l.currency, priceSgdMinor: l.priceSgd ? sgdMinor(l.priceSgd) : 0, lastCheckedAt: l.lastCheckedAt };
}

export interface Buybox {
  /** Whether the listing itself is an offer now (isOffer). */
  offered: boolean;
  /** The offer holding the buy box: the listing itself when it wins; null when its group has no offer. */
  offer: GroupOffer | null;
  /** The listing is an offer and no offer of its group is cheaper (every tied offer wins). */
  winner: boolean;
  /** Offers in the group, the listing included when it is one. */
  offers: number;
  /** 0-1: the freshness weight of the buy-box offer times 1 - 0.5^offers; null without an offer. */
  confidence: number | null;
}

/**
 * Who holds the buy box of the listing's match group (the lowest price among its offers) and how
 * far that price can be trusted. The group is read after the listing, so the listing's own row
 * decides whether it is an offer and at what price, whatever the group read said of it.
 */
export function buyboxOf(l: BuyboxListing, group: GroupOffers | null, now: Date): Buybox {
  const self = offerOfListing(l);
  const selfOffer = isOffer({ inStock: l.inStock, lastCheckedAt: l.lastCheckedAt, priceSgdMinor: self.priceSgdMinor }, offeredSince(now));
  const others = group?.cheapest && group.cheapest.listingId !== l.id ? group.cheapest : null;
  const winner = selfOffer && (others === null || self.priceSgdMinor <= others.priceSgdMinor);
  const offer = winner ? self : others;
  const offers = Math.max(group?.offers ?? 0, selfOffer ? 1 : 0, offer ? 1 : 0);
  return { offered: selfOffer, offer, winner, offers, confidence: offer ? buyboxConfidence(offer, offers, now) : null };
}

/**
 * A buy-box price is as current as its offer's last check, and the more offers it was the lowest
 * of, the likelier it is the market's lowest: one offer halves the weight, two make it 3/4, and so on.
 */
export function buyboxConfidence(offer: Pick<GroupOffer, 'lastCheckedAt'>, offers: number, now: Date): number {
  const coverage = 1 - 0.5 ** Math.max(1, offers);
  return Math.round(freshnessWeight(freshnessOf(offer.lastCheckedAt, now)) * coverage * 100) / 100;
}

/** What value_score weighs (see valueScore). */
export const VALUE = {
  priceWeight: 0.6,
  ratingWeight: 0.4,
  /** A rating is shrunk towards the middle of the 0-5 scale as if it came with this many more reviews. */
  priorRating: 2.5,
  priorReviews: 10,
} as const;

/**
 * How good a buy the listing is within its group, 0-1: 0.6 x price position (the buy-box price
 * over the listing's, 1 for the cheapest) + 0.4 x its rating / 5, the rating first shrunk towards
 * 2.5 stars as if it came with 10 more reviews (a 5-star rating from 2 reviews counts as 2.92).
 * Null when there is no buy-box price or the listing has no SGD price to compare.
 */
export function valueScore(listingSgdMinor: number, buyboxSgdMinor: number | null, rating: number | null, reviewCount: number | null): number | null {
  if (buyboxSgdMinor === null || listingSgdMinor <= 0 || buyboxSgdMinor <= 0) return null;
  const position = Math.min(1, buyboxSgdMinor / listingSgdMinor);
  const n = rating === null ? 0 : Math.max(1, reviewCount ?? 1);
  const shrunk = ((rating ?? 0) * n + VALUE.priorRating * VALUE.priorReviews) / (n + VALUE.priorReviews);
  const score = VALUE.priceWeight * position + VALUE.ratingWeight * Math.min(1, Math.max(0, shrunk / 5));
  return Math.round(score * 100) / 100;
}
