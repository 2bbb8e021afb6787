import Big from 'big.js';
import type { Currency } from './currencies.js';

/**
 * How an agent's natural-language `q` becomes a search (docs/api.md, V2 agent endpoints): a price
 * an amount states after a cue word ("under 500", "between 20 and 50", "over S$100") becomes a
 * price bound, and filler words ("i need a", "cheap", "please") are dropped, because search
 * requires every word it is given. Everything else is searched for as typed.
 */
export interface AgentQuery {
  /** The words left to search for, space-separated; empty when none is left. */
  keywords: string;
  minPrice: StatedPrice | null;
  maxPrice: StatedPrice | null;
}

/** An amount the text states; `currency` is null when the text names none ("under 500", "$50"). */
export interface StatedPrice { amount: string; currency: Currency | null }

/** Words that carry no product meaning in a shopping request (English). */
const FILLER = new Set([
  'a', 'an', 'the', 'i', 'im', 'me', 'my', 'we', 'us', 'our', 'you', 'your', 'need', 'needs', 'want', 'wants', 'looking', 'look',
  'searching', 'search', 'find', 'show', 'give', 'get', 'buy', 'buying', 'purchase', 'shop', 'shopping', 'please', 'pls', 'some',
  'any', 'something', 'anything', 'for', 'to', 'of', 'with', 'and', 'or', 'that', 'which', 'is', 'are', 'can', 'could', 'would',
  'like', 'good', 'great', 'best', 'top', 'cheap', 'cheaper', 'cheapest', 'affordable', 'budget', 'price', 'priced', 'around',
  // cue words left over when no amount follows them ("under 2 kg")
  'under', 'below', 'over', 'above', 'less', 'than', 'within',
]);

/** Currency words and symbols an amount may carry; null: a dollar of the request's currency. */
const CURRENCY_WORDS: Record<string, Currency | null> = {
  's$': 'SGD', 'sgd': 'SGD', 'us$': 'USD', 'usd': 'USD', '$': null, 'dollar': null, 'dollars': null, 'rm': 'MYR', 'myr': 'MYR',
  'ringgit': 'MYR', '₱': 'PHP', 'php': 'PHP', 'peso': 'PHP', 'pesos': 'PHP', '฿': 'THB', 'thb': 'THB', 'baht': 'THB',
  '₫': 'VND', 'vnd': 'VND', 'dong': 'VND',
};

const SYMBOL = String.raw`(s\$|us\$|\$|rm|₱|฿|₫|sgd|usd|myr|thb|php|vnd)?\s*`;
const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(k)?`;
const SUFFIX = String.raw`(?:\s*(sgd|usd|myr|thb|php|vnd|dollars?|ringgit|baht|pesos?|dong|₫))?`;
/** A number followed by a unit is a size, not a price ("under 2 kg", "over 100 inch"). */
const NOT_A_UNIT = String.raw`(?![\p{L}\d])(?!\s*(?:kg|g|lbs?|mm|cm|m|inch(?:es)?|in|gb|tb|mb|w|mah|l|ml|hz|pcs|pieces?)\b)`;
const AMOUNT = `${SYMBOL}${NUMBER}${SUFFIX}${NOT_A_UNIT}`;
const MAX_CUE = String.raw`under|below|less\s+than|cheaper\s+than|no\s+more\s+than|not\s+more\s+than|at\s+most|up\s+to|max(?:imum)?|within`;
const MIN_CUE = String.raw`over|above|more\s+than|at\s+least|min(?:imum)?`;

const BETWEEN = new RegExp(String.raw`(?<![\p{L}\d])between\s+${AMOUNT}\s+(?:and|to|-)\s+${AMOUNT}`, 'giu');
const BOUND = new RegExp(String.raw`(?<![\p{L}\d])(${MAX_CUE}|${MIN_CUE})\s+${AMOUNT}`, 'giu');
const IS_MAX = new RegExp(`^(?:${MAX_CUE})$`, 'iu');

function stated(symbol: string | undefined, whole: string, fraction: string | undefined, thousands: string | undefined, suffix: string | undefined): StatedPrice {
  let amount = new Big(whole.replace(/,/g, '') + (fraction ?? ''));
  if (thousands) amount = amount.times(1000);
  const word = (symbol ?? suffix)?.toLowerCase();
  return { amount: amount.toFixed(), currency: word === undefined ? null : (CURRENCY_WORDS[word] ?? null) };
}

/** The keywords and stated price bounds of an agent's query. A later bound of a kind wins over an earlier one. */
export function interpretAgentQuery(q: string): AgentQuery {
  let minPrice: StatedPrice | null = null;
  let maxPrice: StatedPrice | null = null;
  let text = q.normalize('NFKC');
  text = text.replace(BETWEEN, (_m, s1, w1, f1, k1, x1, s2, w2, f2, k2, x2) => {
    minPrice = stated(s1, w1, f1, k1, x1);
    maxPrice = stated(s2, w2, f2, k2, x2);
    return ' ';
  });
  text = text.replace(BOUND, (_m, cue: string, s, w, f, k, x) => {
    const price = stated(s, w, f, k, x);
    if (IS_MAX.test(cue)) maxPrice = price;
    else minPrice = price;
    return ' ';
  });
  // The words search would take (domain/search-text.ts searchWords), filler dropped before its cap of 16.
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !FILLER.has(w));
  return { keywords: words.slice(0, 16).join(' '), minPrice, maxPrice };
}
