import { countryForCurrency, isCurrency, type Currency } from '../domain/currencies.js';
import { convertScaled, type RateTable } from '../domain/fx.js';
import { compareScaled, formatScaled, minorScaled, parseScaled, roundedText, type Scaled } from '../domain/money.js';
import { plainHost } from '../store/derived.js';
import { STOCK_STATUSES, type NormalizedRecord } from '../domain/ingest-record.js';
import type { StockStatus, Variant } from '../domain/listing.js';

export interface Rejection { line: number; field: string; reason: string }
export type Normalized = { ok: true; record: NormalizedRecord } | { ok: false; rejection: Rejection };

const MAX_TEXT = 2000;
const FIVE: Scaled = [5n, 0];
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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

/**
 * Validates one ingest record (the public format of DEVELOPERS.md) and normalizes it: exact money
 * in the currency's decimals, SGD/USD normalizations, region and country, timestamps in ISO UTC.
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
  let original: Scaled | null = null;
  if (raw.original_price != null && raw.original_price !== '') {
    original = parseScaled(raw.original_price);
    if (!original || original[0] < 0n) return fail(line, 'original_price', 'must be a non-negative decimal');
  }
  let rating: string | null = null;
  if (raw.rating != null && raw.rating !== '') {
    const r = parseScaled(raw.rating);
    if (!r || r[0] < 0n || compareScaled(r, FIVE) > 0) return fail(line, 'rating', 'must be a number from 0 to 5');
    rating = roundedText(r, 2);
  }
  const reviewCount = raw.review_count == null ? null : Number(raw.review_count);
  if (reviewCount !== null && (!Number.isInteger(reviewCount) || reviewCount < 0)) return fail(line, 'review_count', 'must be a non-negative integer');
  const shippingDays = raw.shipping_days == null ? null : Number(raw.shipping_days);
  if (shippingDays !== null && (!Number.isInteger(shippingDays) || shippingDays < 0 || shippingDays > 365)) return fail(line, 'shipping_days', 'must be an integer from 0 to 365');
  let observedAt = now.toISOString();
  if (raw.observed_at != null) {
    const t = typeof raw.observed_at === 'string' ? Date.parse(raw.observed_at) : NaN;
    if (Number.isNaN(t)) return fail(line, 'observed_at', 'must be an ISO 8601 time');
    observedAt = new Date(t).toISOString();
  }
  const inStock = raw.in_stock == null ? null : raw.in_stock === true || raw.in_stock === 'true' ? true : raw.in_stock === false || raw.in_stock === 'false' ? false : undefined;
  if (inStock === undefined) return fail(line, 'in_stock', 'must be a boolean');
  const categoryPath = raw.category_path == null ? null
    : Array.isArray(raw.category_path) ? raw.category_path.map((c) => String(c).trim()).filter(Boolean)
      : typeof raw.category_path === 'string' ? raw.category_path.split(/\s*[>|/]\s*/).filter(Boolean) : undefined;
  if (categoryPath === undefined) return fail(line, 'category_path', 'must be an array of names or a "A > B > C" string');
  for (const f of ['specs', 'metadata'] as const) if (raw[f] != null && !isObject(raw[f])) return fail(line, f, 'must be an object');
  const variants: Variant[] = [];
  if (raw.variants != null) {
    if (!Array.isArray(raw.variants)) return fail(line, 'variants', 'must be an array');
    for (const [i, v] of raw.variants.entries()) {
      if (!isObject(v)) return fail(line, `variants[${i}]`, 'must be an object');
      const vp = parseScaled(v.price);
      const vc = (str(v.currency) ?? currency).toUpperCase();
      if (!vp || vp[0] < 0n) return fail(line, `variants[${i}].price`, 'must be a non-negative decimal');
      if (!isCurrency(vc)) return fail(line, `variants[${i}].currency`, `unsupported currency ${vc}`);
      const status = (str(v.stock_status) ?? 'in_stock') as StockStatus;
      if (!STOCK_STATUSES.includes(status)) return fail(line, `variants[${i}].stock_status`, `one of ${STOCK_STATUSES.join(', ')}`);
      variants.push({
        variantId: str(v.variant_id) ?? `${sku}-${i + 1}`, variantName: str(v.variant_name) ?? `Variant ${i + 1}`,
        price: formatScaled(vp, vc), currency: vc, stockStatus: status, specs: isObject(v.specs) ? v.specs : {},
      });
    }
  }
  const countryCode = (str(raw.country_code) ?? str(raw.region) ?? countryForCurrency(currency) ?? 'SG').toUpperCase();
  if (!/^[A-Z]{2}$/.test(countryCode)) return fail(line, 'country_code', 'must be a two-letter ISO country code');
  const region = (str(raw.region) ?? countryCode).toLowerCase();
  const priceSgd = convertScaled(priceValue, currency, 'SGD', rates);
  const gtin = str(raw.gtin) ?? str(raw.barcode);
  const text = (v: unknown) => str(v)?.slice(0, MAX_TEXT) ?? null;
  return {
    ok: true,
    record: {
      line, source: source.toLowerCase(), sku, merchantId: str(raw.merchant_id), title: title.slice(0, 500),
      description: raw.description == null ? null : String(raw.description).slice(0, 20000),
      brand: text(raw.brand), category: text(raw.category) ?? categoryPath?.[categoryPath.length - 1] ?? null,
      categoryPath: categoryPath?.length ? categoryPath : null, gtin: gtin ? gtin.replace(/[\s-]/g, '') : null, mpn: text(raw.mpn),
      price: formatScaled(priceValue, currency), currency,
      priceSgd: formatScaled(priceSgd, 'SGD'), priceUsd: formatScaled(convertScaled(priceValue, currency, 'USD', rates), 'USD'),
      priceSgdMinor: minorScaled(priceSgd, 'SGD'),
      originalPrice: original ? formatScaled(original, currency) : null,
      url, affiliateUrl: text(raw.affiliate_url), imageUrl: text(raw.image_url), rating, reviewCount,
      region, countryCode, inStock, stockLevel: text(raw.stock_level), shippingDays,
      specs: isObject(raw.specs) ? raw.specs : null, metadata: isObject(raw.metadata) ? raw.metadata : null,
      variants, observedAt,
    },
  };
}

