import Big from 'big.js';
import type { Currency } from './currencies.js';
import { OFFER_MAX_AGE_DAYS } from './buybox.js';
import { changePct } from './money.js';
import type { PriceChange } from './price-window.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** What recommendation_reason cites: every number in it is one of these. */
export interface ReasonFacts {
  currency: Currency;
  /** The listing's price in `currency`. */
  price: string;
  /** Whether the listing is an offer now (see buybox.ts isOffer), and if not, why. */
  offer: boolean;
  inStock: boolean | null;
  lastCheckedAt: string;
  /** The buy-box price in `currency`; null when its group has no offer. */
  buyboxPrice: string | null;
  buyboxWinner: boolean;
  offers: number;
  /** As stored: "4.6", "5". */
  rating: string | null;
  reviewCount: number | null;
  change: PriceChange | null;
  valueScore: number | null;
  now: Date;
  /**
   * When the advertised original price was not charged in the last 90 days (honest-deal.ts), in
   * `currency`: that price, the highest one charged, and the lowest of the 30 days before the
   * discount (null when unknown). Null otherwise.
   */
  fakeDiscount?: { original: string; highest: string; priorLow: string | null } | null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const money = (amount: string, currency: Currency) => `${currency} ${amount}`;
const pct = (n: number) => `${Math.abs(n).toFixed(2)}%`;

/** "3 hours ago": minutes under an hour, hours under two days, days after. */
export function ageText(at: string, now: Date): string {
  const age = now.getTime() - Date.parse(at);
  if (age < MINUTE) return 'just now';
  if (age < HOUR) return `${plural(Math.floor(age / MINUTE), 'minute')} ago`;
  if (age < 2 * DAY) return `${plural(Math.floor(age / HOUR), 'hour')} ago`;
  return `${plural(Math.floor(age / DAY), 'day')} ago`;
}

function position(f: ReasonFacts): string {
  const lowest = f.buyboxPrice === null ? '' : `; the lowest of ${plural(f.offers, 'offer')} for this product is ${money(f.buyboxPrice, f.currency)}`;
  if (!f.offer) {
    if (f.inStock === false) return `Out of stock when last checked${lowest}`;
    if (Date.parse(f.lastCheckedAt) < f.now.getTime() - OFFER_MAX_AGE_DAYS * DAY) return `Not seen for over ${OFFER_MAX_AGE_DAYS} days${lowest}`;
    return `No price to compare${lowest}`;
  }
  if (f.buyboxWinner) {
    return f.offers <= 1 ? `The only offer for this product, at ${money(f.price, f.currency)}` : `Cheapest of ${f.offers} offers at ${money(f.price, f.currency)}`;
  }
  if (f.buyboxPrice === null) return `${money(f.price, f.currency)}`;
  const above = new Big(f.buyboxPrice).eq(0) ? '' : ` (${pct(changePct(new Big(f.buyboxPrice), new Big(f.price)))} above)`;
  return `${money(f.price, f.currency)}${above}; the lowest of ${plural(f.offers, 'offer')} for this product is ${money(f.buyboxPrice, f.currency)}`;
}

function change(c: PriceChange): string {
  const span = `in ${plural(c.days, 'day')}`;
  if (c.trend === 'stable') return `price unchanged ${span}`;
  return `price ${c.trend} ${c.percentage === null ? '' : `${pct(c.percentage)} `}${span}`;
}

/**
 * recommendation_reason: plain words that cite the numbers behind the signals, in this order:
 * where the price sits among the group's offers, the rating, the price change, a discount whose
 * original price was never charged, the value score and the age of the data. A clause whose number is unknown is left out; the first and last always stand.
 */
export function recommendationReason(f: ReasonFacts): string {
  const parts = [position(f)];
  if (f.rating !== null) parts.push(`rated ${f.rating} of 5${f.reviewCount === null ? '' : ` from ${plural(f.reviewCount, 'review')}`}`);
  else parts.push('no rating yet');
  if (f.change) parts.push(change(f.change));
  if (f.fakeDiscount) {
    const d = f.fakeDiscount;
    const low = d.priorLow === null ? '' : `, lowest ${money(d.priorLow, f.currency)} in the 30 days before the discount`;
    parts.push(`the original price ${money(d.original, f.currency)} was not charged in the last 90 days (highest ${money(d.highest, f.currency)}${low})`);
  }
  if (f.valueScore !== null) parts.push(`value score ${f.valueScore.toFixed(2)}`);
  parts.push(`checked ${ageText(f.lastCheckedAt, f.now)}`);
  return `${parts.join('; ')}.`;
}
