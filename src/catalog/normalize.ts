import { countryForCurrency, isCurrency, type Currency } from '../domain/currencies.js';
import { convertScaled, type RateTable } from '../domain/fx.js';
import { compareScaled, formatScaled, minorScaled, parseScaled, roundedText, type Scaled } from '../domain/money.js';
import { plainHost } from '../domain/listing-columns.js';
import { STOCK_STATUSES, type NormalizedRecord } from '../domain/ingest-record.js';
import type { StockStatus, Variant } from '../domain/listing.js';

export interface Rejection { line: number; field: string; reason: string }
export type Normalized = { ok: true; record: NormalizedRecord } | { ok: false; rejection: Rejection };

const MAX_TEXT = 2000;
const FIVE: Scaled = [5n, 0];
/** A string member trimmed (null when empty), a number as its text, anything else null. */
function str(v: unknown): string | null {
  if (typeof v === 'string') {
    const n = v.length;
    if (n === 0) return null;
    const a = v.charCodeAt(0);
    const b = v.charCodeAt(n - 1);
    // Printable ASCII at both ends (the common case): trim would give the same string back.
    if (a > 32 && a < 127 && b > 32 && b < 127) return v;
    const t = v.trim();
    return t ? t : null;
  }
  return typeof v === 'number' ? String(v) : null;
}
/** A JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(line: number, field: string, reason: string): Normalized {
  return { ok: false, rejection: { line, field, reason } };
}

function isHttpUrl(s: string): boolean {
  // A plain lower-case host parses, whatever follows it (the parser escapes a path, never refuses it).
  if (plainHost(s) !== null) return true;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

// The form toISOString writes. A time written in it with a real calendar day parses to itself, so
// it needs neither the date parser nor the formatter; any other text takes the parser (which also
// takes days up to 31 in any month, rolling them over).
const ISO_UTC = /^(\d{4})-(\d\d)-(\d\d)T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** An observed_at text as ISO UTC (toISOString's form); null when it is not a time. */
export function isoTime(text: string): string | null {
  const m = ISO_UTC.exec(text);
  if (m) {
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    if (month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : MONTH_DAYS[month - 1])) return text;
  }
  const t = Date.parse(text);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

const text = (v: unknown) => str(v)?.slice(0, MAX_TEXT) ?? null;

function categoryPathOf(v: unknown): string[] | null | undefined {
  if (v == null) return null;
  if (typeof v === 'string') return v.split(/\s*[>|/]\s*/).filter(Boolean);
  if (!Array.isArray(v)) return undefined;
  const names: string[] = [];
  for (let i = 0; i < v.length; i++) {
    const c: unknown = v[i];
    if (typeof c !== 'string' && typeof c !== 'number') return undefined;
    const name = String(c).trim();
    if (name) names.push(name);
  }
  return names;
}

/** A count given as a number or a numeric string (anything else is NaN, which no check accepts). */
const countOf = (v: unknown): number => (typeof v === 'number' || typeof v === 'string' ? Number(v) : NaN);

/** The record's variants normalized, or the rejection of the first bad one. */
function variantsOf(list: unknown, sku: string, currency: Currency, line: number): Variant[] | Normalized {
  const variants: Variant[] = [];
  if (list == null) return variants;
  if (!Array.isArray(list)) return fail(line, 'variants', 'must be an array');
  for (let i = 0; i < list.length; i++) {
    const v: unknown = list[i];
    if (!isObject(v)) return fail(line, `variants[${i}]`, 'must be an object');
    const vp = parseScaled(v.price);
    const vc = (str(v.currency) ?? currency).toUpperCase();
    if (!vp || vp[0] < 0n) return fail(line, `variants[${i}].price`, 'must be a non-negative decimal');
    if (!isCurrency(vc)) return fail(line, `variants[${i}].currency`, `unsupported currency ${vc}`);
    const status = (str(v.stock_status) ?? 'in_stock') as StockStatus;
    if (!STOCK_STATUSES.includes(status)) return fail(line, `variants[${i}].stock_status`, `one of ${STOCK_STATUSES.join(', ')}`);
    const specs = v.specs;
    variants.push({
      variantId: str(v.variant_id) ?? `${sku}-${i + 1}`, variantName: str(v.variant_name) ?? `Variant ${i + 1}`,
      price: formatScaled(vp, vc), currency: vc, stockStatus: status, specs: isObject(specs) ? specs : {},
    });
  }
  return variants;
}

/** A record's (source, sku) as normalizeRecord stores them, read without the rest of it; null when either is missing. */
export function listingKeyOf(raw: Record<string, unknown>): { source: string; sku: string } | null {
  const source = str(raw.source);
  const sku = str(raw.sku);
  return source && sku ? { source: source.toLowerCase(), sku } : null;
}

/** A record's observation time as normalizeRecord stores it (`now` when it has none); null when it is not a time. */
export function observedAtOf(raw: Record<string, unknown>, now: Date): string | null {
  const observed = raw.observed_at;
  if (observed == null) return now.toISOString();
  return typeof observed === 'string' ? isoTime(observed) : null;
}

/**
 * Validates one ingest record (the public format of docs/ingest.md) and normalizes it: exact money
 * in the currency's decimals, SGD/USD normalizations, region and country, timestamps in ISO UTC.
 * Each member of the record is read once: records of many shapes make every read a slow lookup.
 */
export function normalizeRecord(raw: unknown, line: number, rates: RateTable, now: Date): Normalized {
  if (!isObject(raw)) return fail(line, '(record)', 'each line must be a JSON object');
  const source = str(raw.source);
  if (!source) return fail(line, 'source', 'required');
  if (!/^[a-z0-9][a-z0-9_.-]{0,63}$/i.test(source)) return fail(line, 'source', 'must be a platform key of letters, digits, _ . -');
  const sku = str(raw.sku);
  if (!sku) return fail(line, 'sku', 'required');
  if (sku.length > 200) return fail(line, 'sku', 'at most 200 characters');
  const title = str(raw.title) ?? str(raw.name);
  if (!title) return fail(line, 'title', 'required (title or name)');
  const currencyText = str(raw.currency)?.toUpperCase();
  if (!currencyText) return fail(line, 'currency', 'required');
  if (!isCurrency(currencyText)) return fail(line, 'currency', `unsupported currency ${currencyText}`);
  const currency: Currency = currencyText;
  const priceValue = parseScaled(raw.price);
  if (!priceValue) return fail(line, 'price', 'required, a decimal string or number');
  if (priceValue[0] < 0n) return fail(line, 'price', 'must not be negative');
  const url = str(raw.url) ?? str(raw.buy_url);
  if (!url) return fail(line, 'url', 'required (url or buy_url)');
  if (!isHttpUrl(url)) return fail(line, 'url', 'must be an http(s) URL');
  const originalPrice = raw.original_price;
  let original: Scaled | null = null;
  if (originalPrice != null && originalPrice !== '') {
    original = parseScaled(originalPrice);
    if (!original || original[0] < 0n) return fail(line, 'original_price', 'must be a non-negative decimal');
  }
  const ratingValue = raw.rating;
  let rating: string | null = null;
  if (ratingValue != null && ratingValue !== '') {
    const r = parseScaled(ratingValue);
    if (!r || r[0] < 0n || compareScaled(r, FIVE) > 0) return fail(line, 'rating', 'must be a number from 0 to 5');
    rating = roundedText(r, 2);
  }
  const reviews = raw.review_count;
  const reviewCount = reviews == null ? null : countOf(reviews);
  if (reviewCount !== null && (!Number.isInteger(reviewCount) || reviewCount < 0)) return fail(line, 'review_count', 'must be a non-negative integer');
  const shipping = raw.shipping_days;
  const shippingDays = shipping == null ? null : countOf(shipping);
  if (shippingDays !== null && (!Number.isInteger(shippingDays) || shippingDays < 0 || shippingDays > 365)) return fail(line, 'shipping_days', 'must be an integer from 0 to 365');
  const observedAt = observedAtOf(raw, now);
  if (observedAt === null) return fail(line, 'observed_at', 'must be an ISO 8601 time');
  const stock = raw.in_stock;
  const inStock = stock == null ? null : stock === true || stock === 'true' ? true : stock === false || stock === 'false' ? false : undefined;
  if (inStock === undefined) return fail(line, 'in_stock', 'must be a boolean');
  const categoryPath = categoryPathOf(raw.category_path);
  if (categoryPath === undefined) return fail(line, 'category_path', 'must be an array of names or a "A > B > C" string');
  const description = raw.description;
  if (description != null && typeof description !== 'string' && typeof description !== 'number') return fail(line, 'description', 'must be a string');
  const specs = raw.specs;
  if (specs != null && !isObject(specs)) return fail(line, 'specs', 'must be an object');
  const metadata = raw.metadata;
  if (metadata != null && !isObject(metadata)) return fail(line, 'metadata', 'must be an object');
  const variants = variantsOf(raw.variants, sku, currency, line);
  if (!Array.isArray(variants)) return variants;
  const regionText = str(raw.region);
  const countryCode = (str(raw.country_code) ?? regionText ?? countryForCurrency(currency) ?? 'SG').toUpperCase();
  if (!/^[A-Z]{2}$/.test(countryCode)) return fail(line, 'country_code', 'must be a two-letter ISO country code');
  const region = (regionText ?? countryCode).toLowerCase();
  const priceSgd = convertScaled(priceValue, currency, 'SGD', rates);
  const gtin = str(raw.gtin) ?? str(raw.barcode);
  return {
    ok: true,
    record: {
      line, source: source.toLowerCase(), sku, merchantId: str(raw.merchant_id), title: title.slice(0, 500),
      description: description == null ? null : String(description).slice(0, 20000),
      brand: text(raw.brand), category: text(raw.category) ?? categoryPath?.[categoryPath.length - 1] ?? null,
      categoryPath: categoryPath?.length ? categoryPath : null, gtin: gtin ? gtin.replace(/[\s-]/g, '') : null, mpn: text(raw.mpn),
      price: formatScaled(priceValue, currency), currency,
      priceSgd: formatScaled(priceSgd, 'SGD'), priceUsd: formatScaled(convertScaled(priceValue, currency, 'USD', rates), 'USD'),
      priceSgdMinor: minorScaled(priceSgd, 'SGD'),
      originalPrice: original ? formatScaled(original, currency) : null,
      url, affiliateUrl: text(raw.affiliate_url), imageUrl: text(raw.image_url), rating, reviewCount,
      region, countryCode, inStock, stockLevel: text(raw.stock_level), shippingDays,
      specs: isObject(specs) ? specs : null, metadata: isObject(metadata) ? metadata : null,
      variants, observedAt,
    },
  };
}
