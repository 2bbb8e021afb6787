import { LEAVES, type BrandLine, type Leaf } from './category-tree.js';
import { mix32 } from './prng.js';

/**
 * Long-tail brands: the category specialists that fill most of a large marketplace beside the
 * famous names. The catalogue's named series run out of distinct model names after a few
 * thousand products; beyond them a product gets one of these brands, a model word and its own
 * model number, so a catalogue of any size keeps each product's listings apart from the others.
 */
export const TAIL_BRANDS_PER_LEAF = 48;

const HEADS = ['Ka', 'Vo', 'Ri', 'Ze', 'Lu', 'Mi', 'To', 'Ax', 'Ne', 'Ve', 'Ra', 'Qui', 'Da', 'Be', 'Ko', 'Ty', 'Fo', 'Gi', 'Ha', 'Jo', 'Pe', 'Wi', 'Yu', 'Xe', 'Cre', 'Pla', 'Sti', 'Bro'];
const TAILS = ['rava', 'volt', 'lix', 'tek', 'mora', 'nex', 'rion', 'vix', 'zo', 'kai', 'lumo', 'tavo', 'rix', 'dano', 'senk', 'vel', 'mar', 'tis', 'qan', 'bex'];

/** Model words of long-tail lines; none is an edition, colour or platform word the matcher reads. */
export const TAIL_WORDS = [
  'Aero', 'Nova', 'Pulse', 'Vibe', 'Flex', 'Zen', 'Core', 'Edge', 'Spark', 'Swift', 'Luna', 'Terra', 'Orbit', 'Fusion',
  'Halo', 'Echo', 'Astra', 'Volt', 'Breeze', 'Aura', 'Vista', 'Nexus', 'Quest', 'Rise', 'Wave', 'Bolt', 'Glide', 'Sonic',
  'Vertex', 'Comet', 'Summit', 'Drift', 'Pixel', 'Ember', 'Atlas', 'Nimbus',
] as const;

const NOUNS: Record<string, string> = {
  Smartwatches: 'Smartwatch', Mice: 'Mouse', 'iPad & Tablets': 'Tablet', Notebooks: 'Laptop', 'Wireless Earbuds': 'Wireless Earbuds',
  Headphones: 'Headphones', Sneakers: 'Sneakers', 'Running Shoes': 'Running Shoes', Diapers: 'Diapers', 'Instant Noodles': 'Instant Noodles',
  'Food Storage': 'Food Container', 'Eau de Parfum': 'Eau de Parfum', Sunscreen: 'Sunscreen', Lipstick: 'Lipstick', Foundation: 'Foundation',
  Cookware: 'Frying Pan', Coffee: 'Ground Coffee', 'Baby Formula': 'Baby Formula'
};

/** The product word a long-tail title carries ("Air Fryers" -> "Air Fryer"). */
export function nounOf(leaf: Leaf): string {
  const name = leaf.path[2];
  return NOUNS[name] ?? name.replace(/s$/, '');
}

const REAL = new Set(LEAVES.flatMap((l) => l.brands.map((b) => b.brand.toLowerCase())));
const GS1 = ['690', '693', '694', '695', '880', '885', '893', '899', '955', '480', '471', '489'];
const cache = new Map<number, BrandLine>();

/** The k-th long-tail brand of a leaf; the same (leaf, k) always names the same brand. */
export function tailBrand(leaf: Leaf, k: number): BrandLine {
  const id = leaf.index * TAIL_BRANDS_PER_LEAF + k;
  let hit = cache.get(id);
  if (hit) return hit;
  let brand = '';
  for (let salt = 0; !brand || REAL.has(brand.toLowerCase()); salt++) {
    const h = mix32(id, 0x7a11 + salt);
    brand = HEADS[h % HEADS.length] + TAILS[(h >>> 8) % TAILS.length];
  }
  hit = { brand, series: [], codePrefix: `${brand.slice(0, 2).toUpperCase()}-`, gs1Prefix: GS1[mix32(id, 3) % GS1.length], home: null };
  cache.set(id, hit);
  return hit;
}
