import { formatMinor, shelfPrice, usdCentsToMinor, type DemoCurrency } from './money-minor.js';
import { TECH_KINDS } from './kinds.js';
import type { Platform } from './platforms.js';
import { Rng, STREAM, mix32, permute32 } from './prng.js';
import type { DemoProduct } from './products.js';
import type { DemoRegion, DemoStockStatus, IngestRecordInput, IngestVariantInput } from './record.js';
import type { Observation } from './timeline.js';
import { titleFor } from './titles.js';
import { slugOf } from './url-slug.js';

interface VariantDef {
  id: string;
  name: string;
  /** Price against the listing's base, basis points. */
  factorBp: number;
  status: DemoStockStatus;
  specs: Record<string, string | number>;
}

/** Everything about a listing that does not change over its history; one fixed shape. */
export interface ListingCtx {
  source: string;
  sku: string;
  title: string;
  currency: DemoCurrency;
  url: string;
  merchantId: string;
  description: string | undefined;
  brand: string;
  category: string;
  categoryPath: string[];
  gtin: string | undefined;
  mpn: string | undefined;
  imageUrl: string;
  affiliateUrl: string | undefined;
  rating: number | undefined;
  reviews: number | undefined;
  region: DemoRegion;
  country: string;
  shippingDays: number;
  specs: Record<string, string | number>;
  metadata: Record<string, unknown>;
  variants: VariantDef[];
  /** Minor units of the default variant at the listing's base price, before shelf rounding. */
  baseRaw: number;
  style: number;
  /** Crossed-out list price against base (basis points), 0 when the seller shows none. */
  listBp: number;
  /**
   * Seconds the listing first sold at its list price before the seller discounted it (an honest
   * "was" price); 0 when it never did (a list price that never was).
   */
  fullPriceFor: number;
}

const DAY_S = 86_400;
/** Of the listings with a list price, the share that first sold at it: their discounts are honest. */
const HONEST_LIST_SHARE = 0.35;

const US_RETAIL = new Set(['bestbuy', 'walmart']);

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** 32 hex digits, like the content hashes in marketplace image URLs. */
function hex32(a: number, b: number): string {
  let s = '';
  for (let k = 0; k < 4; k++) {
    const x = mix32(a + k, b);
    s += HEX[x >>> 24] + HEX[(x >>> 16) & 255] + HEX[(x >>> 8) & 255] + HEX[x & 255];
  }
  return s;
}

function shelf(ctx: ListingCtx, bp: number): number {
  return shelfPrice(Math.round((ctx.baseRaw * bp) / 10_000), ctx.currency, ctx.style);
}

function ids(seed: number, platform: Platform, i: number, slug: string, shop: string): { sku: string; url: string } {
  const salt = mix32(seed, platform.family.charCodeAt(1) * 7919 + platform.region.charCodeAt(0));
  const id = permute32(i, salt);
  switch (platform.family) {
    case 'shopee': {
      const item = 10_000_000_000 + id;
      return { sku: String(item), url: `${platform.origin}/${slug}-i.${shop}.${item}` };
    }
    case 'lazada': {
      const item = 1_000_000_000 + id;
      const skuId = 10_000_000_000 + permute32(i, salt ^ 0x5bd1e995);
      return { sku: `${item}_${platform.country}AMZ-${skuId}`, url: `${platform.origin}/products/${slug}-i${item}-s${skuId}.html` };
    }
    case 'amazon': {
      const asin = `B0${id.toString(36).toUpperCase().padStart(8, '0')}`;
      return { sku: asin, url: `${platform.origin}/dp/${asin}` };
    }
    case 'tiki': {
      const p = 100_000_000 + id;
      return { sku: String(p), url: `${platform.origin}/${slug}-p${p}.html` };
    }
    case 'tokopedia':
      return { sku: String(1_000_000_000 + id), url: `${platform.origin}/${shop}/${slug}-${id.toString(36)}` };
    case 'bestbuy': {
      const s = 1_000_000 + ((Math.imul(i, 0x2c1b3c6d) >>> 0) & 0xffffff);
      return { sku: String(s), url: `${platform.origin}/site/${slug}/${s}.p?skuId=${s}` };
    }
    case 'walmart': {
      const w = 100_000_000 + id;
      return { sku: String(w), url: `${platform.origin}/ip/${slug}/${w}` };
    }
  }
}

function merchantOf(rng: Rng, platform: Platform, product: DemoProduct, official: boolean): string {
  const h = official ? mix32(product.brand.brand.length * 131, product.brand.brand.charCodeAt(0) + platform.region.charCodeAt(0)) : mix32(rng.int(0, 4999), 77);
  switch (platform.family) {
    case 'amazon': return official || rng.chance(0.4) ? (platform.region === 'us' ? 'ATVPDKIKX0DER' : 'A3VJ1YG5VS4N0U') : `A${h.toString(36).toUpperCase().padStart(7, '0')}${(h % 99_991).toString(36).toUpperCase()}`;
    case 'bestbuy': return 'bestbuy';
    case 'walmart': return official || rng.chance(0.6) ? 'walmart' : String(100_000 + (h % 900_000));
    case 'tokopedia': return official ? `${slugOf(product.brand.brand)}-official` : `toko${(h % 9000) + 1000}`;
    case 'tiki': return official ? 'tiki-trading' : String(100_000 + (h % 900_000));
    default: return String(10_000_000 + (h % 900_000_000));
  }
}

export function listingCtx(seed: number, i: number, product: DemoProduct, platform: Platform, groundTruth: boolean): ListingCtx {
  const rng = Rng.for(seed, STREAM.listing, i);
  const title = titleFor(rng, product, platform, { option: product.titleOption, colour: product.colours[0] ?? '' });
  const official = rng.chance(platform.family === 'tiki' || US_RETAIL.has(platform.family) ? 0.6 : 0.3);
  const merchant = merchantOf(rng, platform, product, official);
  const { sku, url } = ids(seed, platform, i, product.slug, merchant);
  const us = platform.region === 'us';
  const marketplace = !US_RETAIL.has(platform.family) && platform.family !== 'amazon';

  const usdCents = Math.round(product.usdCents * platform.priceLevel * (0.94 + rng.next() * 0.12));
  const crossBorder = marketplace && rng.chance(0.12);
  // US retailers list each variant as its own SKU, so their listings carry none.
  const variants: VariantDef[] = US_RETAIL.has(platform.family) ? [] : new Array(product.variants.length);
  for (let k = 0; k < variants.length; k++) {
    const v = product.variants[k];
    const u = rng.next();
    variants[k] = {
      id: `${sku}-${k + 1}`, name: v.name, factorBp: v.factorBp, specs: v.specs,
      status: k === 0 || u < 0.8 ? 'in_stock' : u < 0.9 ? 'low_stock' : u < 0.98 ? 'out_of_stock' : 'pre_order',
    };
  }
  const hasRating = rng.chance(0.92);
  const gtinShare = us ? 0.9 : platform.family === 'tiki' ? 0.6 : platform.family === 'amazon' ? 0.8 : 0.45;
  const metadata: Record<string, unknown> = {
    seller_type: official ? 'official' : marketplace ? 'marketplace' : 'retail',
    ships_from: crossBorder ? 'Overseas' : platform.country,
  };
  if (marketplace) metadata.sold_count = Math.floor(product.popularity * (1 + rng.next() * 4));
  if (groundTruth) metadata.demo_truth = { product: product.index, role: product.role };

  const description = rng.chance(0.85) ? product.description : undefined;
  const gtin = product.gtin && rng.chance(gtinShare) ? product.gtin : undefined;
  const mpn = rng.chance(TECH_KINDS.has(product.leaf.kind) ? (us ? 0.8 : 0.25) : 0.05) ? product.modelCode : undefined;
  const affiliate = rng.chance(0.6)
    ? platform.family === 'amazon' ? `${url}?tag=catalogdemo-20` : `${url}${url.includes('?') ? '&' : '?'}utm_source=catalog&aff_id=demo`
    : undefined;
  const rating = hasRating ? Math.round(Math.min(5, Math.max(1, product.quality + (rng.next() - 0.5) * 0.6)) * 10) / 10 : undefined;
  const reviews = hasRating ? Math.floor(product.popularity * (0.1 + rng.next() * 1.5)) : undefined;
  const shippingDays = crossBorder ? rng.int(7, 14) : rng.int(platform.shipping[0], platform.shipping[1]);
  const listChance = marketplace ? 0.35 : platform.family === 'amazon' ? 0.2 : 0.1;
  const style = rng.int(0, 2);
  const listBp = rng.chance(listChance) ? rng.int(22, 28) * 500 : 0;
  // Drawn last, so every other attribute of a seed's listings stays as it was.
  const fullPriceFor = listBp && rng.chance(HONEST_LIST_SHARE) ? rng.int(7 * DAY_S, 80 * DAY_S) : 0;
  return {
    source: platform.source, sku, title, currency: platform.currency, url, merchantId: merchant, description,
    brand: product.brand.brand, category: product.leaf.path[2], categoryPath: product.leaf.path,
    gtin, mpn,
    imageUrl: `${platform.imageHost}/${hex32(product.index, platform.source.length)}${platform.family === 'shopee' ? '' : '.jpg'}`,
    affiliateUrl: affiliate, rating, reviews, region: platform.region, country: platform.country, shippingDays,
    specs: product.listingSpecs, metadata, variants,
    baseRaw: usdCentsToMinor(usdCents, platform.currency),
    style, listBp, fullPriceFor,
  };
}

/**
 * The full record of a listing in one observed state, `sinceFirst` seconds after its first one.
 * Optional fields the listing lacks are `undefined` (absent once serialized). Nested objects that
 * never change (specs, metadata, category_path, variant specs) are shared between records: treat
 * records as read-only.
 *
 * A listing with a list price either first sells at exactly that price for `fullPriceFor`, then
 * shows it crossed out over its own price (an honest discount: the "was" price was charged), or
 * shows it crossed out from the start (a "was" price that never was).
 */
export function recordOf(ctx: ListingCtx, obs: Observation, observedAt: string, sinceFirst: number): IngestRecordInput {
  const cur = ctx.currency;
  const full = sinceFirst < ctx.fullPriceFor;
  const priceBp = full ? ctx.listBp : obs.priceBp;
  const priceMinor = shelf(ctx, priceBp);
  const price = formatMinor(priceMinor, cur);
  const originalMinor = full ? 0 : Math.max(ctx.listBp ? shelf(ctx, ctx.listBp) : 0, obs.onPromo ? shelf(ctx, obs.regularBp) : 0);
  const n = ctx.variants.length;
  let variants: IngestVariantInput[] | undefined;
  if (n) {
    variants = new Array(n);
    for (let k = 0; k < n; k++) {
      const v = ctx.variants[k];
      variants[k] = {
        variant_id: v.id,
        variant_name: v.name,
        price: k === 0 ? price : formatMinor(shelf(ctx, Math.round((v.factorBp * priceBp) / 10_000)), cur),
        currency: cur,
        stock_status: !obs.inStock ? 'out_of_stock' : k === 0 && obs.level === 'low' ? 'low_stock' : v.status,
        specs: v.specs,
      };
    }
  }
  return {
    source: ctx.source,
    sku: ctx.sku,
    title: ctx.title,
    price,
    currency: cur,
    url: ctx.url,
    merchant_id: ctx.merchantId,
    description: ctx.description,
    brand: ctx.brand,
    category: ctx.category,
    category_path: ctx.categoryPath,
    gtin: ctx.gtin,
    mpn: ctx.mpn,
    image_url: ctx.imageUrl,
    affiliate_url: ctx.affiliateUrl,
    rating: ctx.rating,
    review_count: ctx.reviews,
    region: ctx.region,
    country_code: ctx.country,
    in_stock: obs.inStock,
    stock_level: obs.level,
    original_price: originalMinor > priceMinor ? formatMinor(originalMinor, cur) : undefined,
    shipping_days: ctx.shippingDays,
    specs: ctx.specs,
    metadata: ctx.metadata,
    variants,
    observed_at: observedAt,
  };
}
