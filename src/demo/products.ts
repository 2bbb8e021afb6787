import { CASE_LEAF, EARBUDS_LEAF, LEAVES, PHONE_LEAF, type BrandLine, type Leaf } from './category-tree.js';
import { makeGtin13 } from './gtin.js';
import type { Axis } from './kinds.js';
import { PLATFORMS, type Platform } from './platforms.js';
import { Rng, STREAM, cumulative } from './prng.js';
import { nounOf, tailBrand, TAIL_BRANDS_PER_LEAF, TAIL_WORDS } from './long-tail.js';
import { slugOf } from './url-slug.js';

export type ProductRole = 'product' | 'accessory' | 'bundle';

/** One real-world product; each of its listings on 1 to 6 platforms is built from it. */
export interface DemoProduct {
  index: number;
  role: ProductRole;
  leaf: Leaf;
  brand: BrandLine;
  /** Model name without the brand: "Galaxy A35 5G". */
  name: string;
  modelCode: string;
  gtin: string | null;
  usdCents: number;
  /** Index of the option the titles name, and how many options from there on are sold. */
  axisBase: number;
  axisCount: number;
  colours: string[];
  specs: Record<string, string | number>;
  /** Centre of the listings' ratings. */
  quality: number;
  /** Typical review count. */
  popularity: number;
  /** The phone a case is made for, or the phone a bundle contains. */
  target: DemoProduct | null;
  /** Extra words of a bundle title ("+ Galaxy Buds3"). */
  bundleExtra: string;
  /** The option listings lead with, and the same when titles name it (else ''). */
  option: string;
  titleOption: string;
  slug: string;
  description: string;
  /** Specs every listing shows: the product's plus its default option and colour. */
  listingSpecs: Record<string, string | number>;
  variants: VariantTemplate[];
}

export interface VariantTemplate {
  name: string;
  /** Price against the default variant, basis points. */
  factorBp: number;
  specs: Record<string, string | number>;
}

const labels = new Map<string, string>();

function describe(brand: string, name: string, option: string, specs: Record<string, string | number>): string {
  let s = `${brand} ${name}${option ? ` (${option})` : ''}.`;
  let sep = ' ';
  for (const key in specs) {
    let label = labels.get(key);
    if (!label) labels.set(key, (label = key.replace(/_/g, ' ')));
    s += `${sep}${label}: ${specs[key]}`;
    sep = ', ';
  }
  return s + '.';
}

/** Up to six variants: the sold options times the colours, default first. */
function variantsOf(axis: Axis | undefined, axisBase: number, axisCount: number, colours: string[]): VariantTemplate[] {
  const out: VariantTemplate[] = [];
  const cs = colours.length ? colours : [''];
  for (let k = 0; k < axisCount && out.length < 6; k++) {
    const opt = axis ? axis.options[axisBase + k] : '';
    for (let c = 0; c < cs.length && out.length < 6; c++) {
      const colour = cs[c];
      const specs: Record<string, string | number> = {};
      if (axis) specs[axis.key] = opt;
      if (colour) specs.colour = colour;
      out.push({
        name: opt && colour ? `${opt} / ${colour}` : opt || colour || 'Default',
        factorBp: 10_000 + (axis ? axis.stepPct * 100 * k : 0),
        specs,
      });
    }
  }
  return out;
}

const LEAF_CUM = cumulative(LEAVES.map((l) => l.weight));
const BUNDLE_SHARE = 0.008;
const CODE_SPACE = 36 ** 5;

/** The product's first draw decides its role and leaf, so scanning for phones stays cheap. */
function headOf(rng: Rng): { leaf: Leaf; bundle: boolean } {
  const u = rng.next();
  if (u < BUNDLE_SHARE) return { leaf: PHONE_LEAF, bundle: true };
  return { leaf: LEAVES[rng.weighted(LEAF_CUM)], bundle: false };
}

/** The nearest plain phone before product p, which cases and bundles refer to; -1 when none. */
function phoneBefore(seed: number, p: number): number {
  for (let q = p - 1; q >= 0 && q >= p - 400; q--) {
    const h = headOf(Rng.for(seed, STREAM.product, q));
    if (h.leaf === PHONE_LEAF && !h.bundle) return q;
  }
  return -1;
}

function modelCode(prefix: string, p: number): string {
  const x = (p * 48_271 + 12_345) % CODE_SPACE;
  return prefix + x.toString(36).toUpperCase().padStart(5, '0');
}

function seriesName(rng: Rng, brand: BrandLine): { name: string; usd: [number, number] | null } {
  const s = rng.pick(brand.series);
  const number = s.hi >= s.lo ? String(rng.int(s.lo, s.hi)) : '';
  return { name: `${s.head}${number}${s.tail}`.trim(), usd: s.usd };
}

/**
 * The draws that name a product, in order: role and leaf, the phone a case or bundle refers to,
 * brand, series, suffix and the option titles name. `key` is what two products must not share:
 * listings of one product are told apart from another's by their titles, so each catalogue name
 * belongs to one product and later products drawing a taken name become long-tail products.
 * The suffix is left out of the key: "Watch7 Active" and "Watch7 Classic" listings differ by one
 * weak word and the matcher (rightly unsure) would put both products in one group.
 */
interface Naming {
  rng: Rng;
  leaf: Leaf;
  role: ProductRole;
  /** The phone a case or bundle refers to, -1 when none. */
  target: number;
  brand: BrandLine | null;
  series: { name: string; usd: [number, number] | null };
  suffix: readonly [string, number];
  axisBase: number;
  key: string;
}

function namingOf(seed: number, p: number): Naming {
  const rng = Rng.for(seed, STREAM.product, p);
  const { leaf, bundle } = headOf(rng);
  const needsPhone = bundle || leaf === CASE_LEAF;
  // Without an earlier phone (the first few products) a bundle or case becomes a plain phone.
  const target = needsPhone ? phoneBefore(seed, p) : -1;
  const effLeaf = needsPhone && target < 0 ? PHONE_LEAF : leaf;
  const role: ProductRole = target < 0 ? 'product' : bundle ? 'bundle' : 'accessory';
  const spec = effLeaf.spec;
  const axis = 'axis' in spec ? spec.axis : undefined;
  // A bundle is its phone's brand and name plus earbuds, drawn later: one bundle per phone.
  if (role === 'bundle') return { rng, leaf: effLeaf, role, target, brand: null, series: { name: '', usd: null }, suffix: ['', 1], axisBase: 0, key: `b|${target}` };
  const brand = rng.pick(effLeaf.brands);
  const series = seriesName(rng, brand);
  const suffix = rng.pick(spec.suffixes);
  const axisBase = axis?.inTitle ? rng.int(0, Math.max(0, axis.options.length - 2)) : 0;
  const option = axis?.inTitle ? axis.options[axisBase] : '';
  return { rng, leaf: effLeaf, role, target, brand, series, suffix, axisBase, key: `${effLeaf.index}|${brand.brand}|${series.name}|${option}|${target}` };
}

/** The name that identifies product p in the catalogue: the first product drawing it owns it. */
export function nameKeyOf(seed: number, p: number): string {
  return namingOf(seed, p).key;
}

/**
 * Whether product p is a long-tail product: its catalogue name was drawn by an earlier product,
 * so it gets a brand and model of its own (see `longTailNaming`). The generator decides this
 * once per catalogue, in product order.
 */
export type LongTail = (p: number) => boolean;

/**
 * Made-up brand and model for a long-tail product: a category specialist brand, a model word and
 * the product's own model number in the name (long-tail sellers title by model number).
 */
function longTailNaming(n: Naming, p: number): Naming {
  const { rng } = n;
  const brand = tailBrand(n.leaf, rng.int(0, TAIL_BRANDS_PER_LEAF - 1));
  const code = modelCode(brand.codePrefix, p);
  const word = rng.pick(TAIL_WORDS);
  const leaf = n.role === 'bundle' ? PHONE_LEAF : n.leaf;
  const role: ProductRole = n.role === 'bundle' ? 'product' : n.role;
  const name = role === 'accessory' ? `${word} ${code}` : `${word} ${nounOf(leaf)} ${code}`;
  return { ...n, leaf, role, brand, series: { name, usd: null }, suffix: ['', 1], key: '' };
}

export function productAt(seed: number, p: number, longTail: LongTail = () => false): DemoProduct {
  const head = namingOf(seed, p);
  const naming = longTail(p) ? longTailNaming(head, p) : head;
  const { rng, leaf: effLeaf, role, series, axisBase: base } = naming;
  const target = role === 'product' ? null : productAt(seed, naming.target, longTail);
  const spec = effLeaf.spec;

  const brand = role === 'bundle' ? target!.brand : naming.brand!;
  const [suffix, factor] = naming.suffix;
  const [lo, hi] = series.usd ?? effLeaf.usd;
  let usd = lo * Math.pow(hi / lo, rng.next()) * factor;
  let name = series.name + suffix;
  let bundleExtra = '';
  if (role === 'accessory') name = `${series.name} Case for ${target!.brand.brand} ${target!.name}`;
  if (role === 'bundle') {
    const buds = EARBUDS_LEAF.brands.find((b) => b.brand === brand.brand);
    bundleExtra = `+ ${buds ? seriesName(rng, buds).name : 'Wireless Earbuds'} Bundle`;
    name = target!.name;
    usd = target!.usdCents / 100 + 30 + rng.next() * 60;
  }

  const axis = 'axis' in spec ? spec.axis : undefined;
  let axisBase = 0;
  let axisCount = 1;
  if (axis) {
    const n = axis.options.length;
    if (axis.inTitle) {
      axisBase = base;
      axisCount = Math.min(n - axisBase, rng.int(1, 3));
    } else {
      axisCount = n;
    }
  }
  if (role === 'bundle') {
    axisBase = target!.axisBase;
    axisCount = 1;
  } else if (axis) {
    usd *= 1 + (axis.stepPct * axisBase) / 100;
  }
  const colours: string[] = [];
  if (spec.colours.length) {
    const start = rng.int(0, spec.colours.length - 1);
    const k = rng.int(1, Math.min(3, spec.colours.length));
    for (let c = 0; c < k; c++) colours.push(spec.colours[(start + c) % spec.colours.length]);
  }
  const specs: Record<string, string | number> = {};
  for (const [key, values] of spec.specs) specs[key] = rng.pick(values);

  const hasGtin = role === 'product' ? rng.chance(effLeaf.gtinShare) : role === 'accessory' && rng.chance(0.3);
  const option = axis ? axis.options[axisBase] : '';
  const titleOption = axis?.inTitle ? option : '';
  const listingSpecs: Record<string, string | number> = { ...specs };
  if (axis) listingSpecs[axis.key] = option;
  if (colours.length) listingSpecs.colour = colours[0];
  return {
    option, titleOption, listingSpecs,
    slug: slugOf(`${brand.brand} ${name} ${titleOption} ${bundleExtra}`),
    description: describe(brand.brand, name, option, specs),
    variants: variantsOf(axis, axisBase, axisCount, colours),
    index: p, role, leaf: effLeaf, brand, name,
    modelCode: role === 'bundle' ? target!.modelCode : modelCode(brand.codePrefix, p),
    gtin: hasGtin ? makeGtin13(brand.gs1Prefix, p) : null,
    usdCents: Math.max(99, Math.round(usd * 100)),
    axisBase, axisCount, colours, specs,
    quality: 3.3 + rng.next() * 1.6,
    popularity: Math.floor(Math.pow(10, 0.5 + rng.next() * 3.3)),
    target, bundleExtra,
  };
}

const candidateCache = new Map<string, { list: Platform[]; cum: number[] }>();

/** Platforms that would sell the product: local brands stay home, Best Buy sells no lipstick. */
function candidates(product: DemoProduct): { list: Platform[]; cum: number[] } {
  const key = `${product.leaf.index}:${product.brand.home ?? ''}`;
  let hit = candidateCache.get(key);
  if (!hit) {
    const top = product.leaf.path[0];
    const list = PLATFORMS.filter((pl) => (!pl.sells || pl.sells.has(top)) && (!product.brand.home || pl.region === product.brand.home));
    hit = { list, cum: cumulative(list.map((pl) => pl.weight)) };
    candidateCache.set(key, hit);
  }
  return hit;
}

/**
 * The platform of each of a product's `count` listings: distinct platforms by weight, and when a
 * local product has more listings than its market has platforms, second sellers on the same ones.
 */
export function platformsFor(seed: number, product: DemoProduct, count: number): Platform[] {
  const { list, cum } = candidates(product);
  const rng = Rng.for(seed, STREAM.salt, product.index);
  const chosen: Platform[] = [];
  const taken = new Set<number>();
  while (chosen.length < count && taken.size < list.length) {
    const k = rng.weighted(cum);
    if (taken.has(k)) continue;
    taken.add(k);
    chosen.push(list[k]);
  }
  for (let k = 0; chosen.length < count; k++) chosen.push(chosen[k]);
  return chosen;
}

const GROUP_CUM = cumulative([30, 22, 18, 13, 9, 8]);

/** How many listings each product has: a third alone, the rest on 2 to 6 platforms. */
export function groupSizeOf(seed: number, p: number): number {
  return Rng.for(seed, STREAM.layout, p).weighted(GROUP_CUM) + 1;
}
