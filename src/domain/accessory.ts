/**
 * Which listings are accessories of another product, and which queries ask for one (issue 18 item
 * 14, docs/ranking.md). Search ranks a product above its accessories and best-price never answers
 * an accessory for a query naming the product, unless the query itself asks for an accessory.
 * Pure word rules over folded text, so every engine and store decides alike.
 */
import { foldText } from './matching/text.js';

/** Nouns that make a title an accessory wherever they stand (before "with" or "+"). */
const ACCESSORY_NOUNS: ReadonlySet<string> = new Set([
  'case', 'cases', 'cover', 'covers', 'protector', 'protectors', 'charger', 'chargers', 'cable', 'cables',
  'adapter', 'adapters', 'adaptor', 'holster', 'folio', 'bumper', 'tempered', 'casing', 'softcase', 'hardcase',
]);

/** Nouns that make a title an accessory only when followed by what it fits ("strap for Apple Watch"). */
const FITTED_NOUNS: ReadonlySet<string> = new Set([
  'strap', 'straps', 'band', 'bands', 'mount', 'stand', 'dock', 'stylus', 'pen', 'holder', 'skin', 'skins', 'sleeve',
  'pouch', 'film', 'glass', 'lens', 'battery', 'remote', 'replacement', 'keyboard', 'bag', 'grip', 'ring',
]);

/** "for", in English, Vietnamese ("cho") and Thai ("สำหรับ"); "compatible with", "fits". */
const FITS_MARKERS: ReadonlySet<string> = new Set(['for', 'fits', 'compatible', 'cho', 'สำหรับ']);

/** Device lines a bare "for ..." names: "Tough Armor for iPhone 15" is a case even without the word. */
const DEVICE_WORDS: ReadonlySet<string> = new Set([
  'iphone', 'ipad', 'ipod', 'airpods', 'macbook', 'galaxy', 'pixel', 'redmi', 'xiaomi', 'poco', 'oppo', 'reno', 'vivo',
  'realme', 'huawei', 'honor', 'oneplus', 'nokia', 'motorola', 'moto', 'sony', 'xperia', 'samsung', 'apple', 'watch',
  'switch', 'ps5', 'ps4', 'playstation', 'xbox', 'kindle', 'tab',
]);

/** A material before "case" is a watch's body ("Aluminium Case with Sport Band"), not an accessory. */
const MATERIALS: ReadonlySet<string> = new Set(['aluminium', 'aluminum', 'steel', 'stainless', 'titanium', 'ceramic', 'resin', 'jewel']);

/** Words after which the title lists what comes in the box, not what the listing is ("with", Vietnamese kèm, tặng). */
const INCLUDES: ReadonlySet<string> = new Set(['with', 'kem', 'tang', 'includes', 'including']);
/** " + " also starts what comes in the box; "8GB+128GB" has no spaces around its plus. */
const PLUS = /\s\+\s/;

/** Two-word accessory names in Vietnamese: ốp lưng, bao da, cường lực, miếng dán, cáp sạc, củ sạc, phụ kiện. */
const ACCESSORY_PAIRS: ReadonlySet<string> = new Set(['op lung', 'bao da', 'cuong luc', 'mieng dan', 'cap sac', 'cu sac', 'phu kien']);

/** Thai accessory words, found inside unsegmented Thai text: case, film, charging cable, charger head, charger. */
const THAI_WORDS = ['เคส', 'ฟิล์ม', 'สายชาร์จ', 'หัวชาร์จ', 'ที่ชาร์จ', 'อุปกรณ์เสริม'];

/** Leaf category words of accessory categories ("Phone Cases", "Mobile Accessories", "Watch Bands"). */
const CATEGORY_WORDS: ReadonlySet<string> = new Set([
  ...ACCESSORY_NOUNS, 'accessory', 'accessories', 'strap', 'straps', 'band', 'bands', 'holder', 'holders', 'mounts', 'skins',
]);

const SPLIT = /[^\p{L}\p{N}]+/u;

function words(text: string): string[] {
  return foldText(text).split(SPLIT).filter((w) => w !== '');
}

function hasPair(ws: string[]): boolean {
  for (let i = 0; i + 1 < ws.length; i++) if (ACCESSORY_PAIRS.has(`${ws[i]} ${ws[i + 1]}`)) return true;
  return false;
}

const hasThai = (text: string) => THAI_WORDS.some((w) => text.includes(w));

/** Whether a title says its listing is an accessory; see the module comment and docs/ranking.md. */
export function isAccessoryTitle(title: string): boolean {
  const all = words(title.split(PLUS)[0]);
  const cut = all.findIndex((w) => INCLUDES.has(w));
  const ws = cut < 0 ? all : all.slice(0, cut);
  if (hasPair(ws) || hasThai(title)) return true;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i];
    const fits = FITS_MARKERS.has(ws[i + 1] ?? '') || FITS_MARKERS.has(ws[i + 2] ?? '');
    if (ACCESSORY_NOUNS.has(w) && !MATERIALS.has(ws[i - 1] ?? '')) return true;
    if (FITTED_NOUNS.has(w) && fits) return true;
    if (FITS_MARKERS.has(w) && i > 0 && DEVICE_WORDS.has(ws[i + 1] ?? '')) return true;
  }
  return false;
}

/** Whether a category (its leaf: the last name of the path, else the category) is an accessory category. */
export function isAccessoryCategory(path: readonly string[] | null, category: string | null): boolean {
  const leaf = path?.length ? path[path.length - 1] : category;
  if (!leaf) return false;
  const ws = words(leaf);
  return ws.some((w) => CATEGORY_WORDS.has(w)) || hasPair(ws) || hasThai(leaf);
}

/** A listing is an accessory when its category is an accessory category or its title says so. */
export function isAccessoryListing(l: { title: string; categoryPath: readonly string[] | null; category: string | null }): boolean {
  return isAccessoryCategory(l.categoryPath, l.category) || isAccessoryTitle(l.title);
}

/** Whether a search query asks for an accessory ("galaxy s24 case", "ốp lưng iphone"): then accessories rank as anything else. */
export function asksForAccessory(query: string): boolean {
  const ws = words(query);
  return ws.some((w) => ACCESSORY_NOUNS.has(w) || FITTED_NOUNS.has(w) || CATEGORY_WORDS.has(w)) || hasPair(ws) || hasThai(query);
}
