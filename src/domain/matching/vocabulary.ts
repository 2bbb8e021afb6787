// Closed word lists the matcher reasons with. They are general product knowledge (English plus the
// Vietnamese and Thai words our SEA sources use), not fitted to any benchmark pair.

/** Words that carry no identity: dropping them keeps "Apple iPhone 15" equal to "the iPhone 15 by Apple". */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'in', 'on', 'by', 'to', 'at', 'from', 'new', 'w', 'r', 'tm',
  'only', 'version', 'edition', 'ed', 'ver', 'retail', 'box', 'boxed', 'complete', 'package', 'product',
  'full', 'english', 'eng', 'us', 'usa', 'oem', 'genuine', 'original', 'official', 'brand', 'item',
  'software', 'series', 'model', 'inc', 'corp', 'co', 'ltd', 'llc',
  // Vietnamese and Thai filler that prefixes titles ("Điện thoại ...", "Chính hãng" = genuine)
  'chinh', 'hang', 'hàng', 'moi', 'mới', 'ban', 'bản', 'quoc', 'te', 'ของแท้', 'แท้', 'ใหม่', 'ประกัน', 'ศูนย์',
]);

/** Present in many titles of unrelated products: they count, but little. */
export const WEAK_WORDS: ReadonlySet<string> = new Set([
  'win', 'windows', 'mac', 'macintosh', 'pc', 'xp', 'vista', 'me', 'nt', 'os', 'x', 'cd', 'dvd', 'rom', 'cdrom',
  'user', 'users', 'license', 'lic', 'pack', 'suite', 'system', 'digital', 'black', 'white', 'silver',
  'music', 'production', 'editing', 'game', 'games', 'pro', 'media', 'audio', 'video', 'design',
  'dien', 'thoai', 'may', 'tinh', 'โทรศัพท์', 'มือ', 'ถือ', 'มือถือ', 'smartphone', 'phone', 'mobile', 'cell',
  'unlocked', 'dual', 'sim', 'wireless', 'camera', 'inch', 'with', 'for',
]);

/**
 * Edition and language words: two listings naming different ones are different products
 * ("Instant Immersion German" is not "... Italian", "Standard" is not "Premium").
 */
export const EDITION_WORDS: ReadonlyMap<string, string> = new Map([
  ['standard', 'standard'], ['std', 'standard'], ['professional', 'professional'], ['pro', 'professional'],
  ['premium', 'premium'], ['deluxe', 'deluxe'], ['dlx', 'deluxe'], ['ultimate', 'ultimate'],
  ['enterprise', 'enterprise'], ['basic', 'basic'], ['home', 'home'], ['business', 'business'],
  ['platinum', 'platinum'], ['gold', 'gold'], ['express', 'express'], ['elements', 'elements'],
  ['lite', 'lite'], ['plus', 'plus'], ['max', 'max'], ['mini', 'mini'], ['ultra', 'ultra'],
  ['english', 'lang:english'], ['spanish', 'lang:spanish'], ['french', 'lang:french'], ['german', 'lang:german'],
  ['italian', 'lang:italian'], ['japanese', 'lang:japanese'], ['chinese', 'lang:chinese'],
  ['portuguese', 'lang:portuguese'], ['russian', 'lang:russian'], ['korean', 'lang:korean'],
]);

/** Colours (English, Vietnamese without diacritics, Thai). Colour alone never separates a product. */
export const COLOUR_WORDS: ReadonlySet<string> = new Set([
  'black', 'white', 'silver', 'gray', 'grey', 'gold', 'blue', 'red', 'green', 'pink', 'purple', 'yellow',
  'orange', 'brown', 'beige', 'navy', 'graphite', 'titanium', 'midnight', 'starlight', 'graphite', 'bronze',
  'rose', 'cream', 'violet', 'lavender', 'mint', 'awesome', 'phantom', 'space', 'jet', 'matte', 'blk', 'wht',
  // Vietnamese colour words; 'đỏ' (red) and 'lá' (leaf green) are left out, 'do'/'la' are common words
  'den', 'trang', 'xanh', 'vang', 'hong', 'tim', 'bac', 'xam', 'duong', 'reu',
  'ดำ', 'ขาว', 'เงิน', 'ทอง', 'น้ำเงิน', 'แดง', 'เขียว', 'ชมพู', 'ม่วง', 'เหลือง', 'เทา', 'สี',
]);

/**
 * Nouns that make a listing an accessory of something else. "for" + product name is the other
 * signal (see classify.ts). Batteries and mounts are products in their own right, so two batteries
 * still compare normally; only the asymmetric case (battery vs camcorder) is an accessory match.
 */
export const ACCESSORY_WORDS: ReadonlySet<string> = new Set([
  'case', 'cover', 'sleeve', 'skin', 'protector', 'tempered', 'glass', 'film', 'holster', 'pouch', 'bag',
  'charger', 'cable', 'adapter', 'adaptor', 'dock', 'stand', 'mount', 'bracket', 'strap', 'band', 'battery',
  'stylus', 'remote', 'replacement', 'tripod', 'folio', 'bumper', 'housing',
  // Vietnamese: ốp lưng (phone case), bao da (leather case), sạc (charger), cường lực (tempered glass)
  'op', 'lung', 'bao', 'sac', 'cuong', 'luc',
  'เคส', 'ฟิล์ม', 'ซอง', 'สายชาร์จ', 'หัวชาร์จ', 'ที่ชาร์จ', 'กระจก', 'ขาตั้ง',
]);

/**
 * Words that name one model of a line apart from another ("Galaxy S7" / "S7 edge", "iPhone 15 Pro" /
 * "Pro Max", "iPad" / "iPad mini"): two titles that differ by one are different products.
 */
export const VARIANT_WORDS: ReadonlySet<string> = new Set(['edge', 'plus', 'pro', 'max', 'mini', 'lite', 'ultra']);

/**
 * Accessory nouns of things made for one product ("OtterBox case for Galaxy S24 SM-S921B"): such a
 * listing names that product's model code without being that product.
 */
export const FITTED_NOUNS: ReadonlySet<string> = new Set([
  'case', 'cover', 'protector', 'skin', 'sleeve', 'holster', 'folio', 'bumper', 'pouch', 'charger', 'cable', 'adapter',
  // Vietnamese ốp (lưng), bao (da), sạc; Thai case and film
  'op', 'bao', 'sac', 'เคส', 'ฟิล์ม',
]);

/** Words that say "this listing is more than one item". */
export const BUNDLE_WORDS: ReadonlySet<string> = new Set(['bundle', 'combo', 'bộ', 'ชุด', 'แพ็ค', 'kèm']);

/** Company-form words stripped from brand names so "Aspyr Media Inc." equals "aspyr media". */
export const BRAND_NOISE: ReadonlySet<string> = new Set([
  'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'ltd', 'limited', 'llc', 'gmbh', 'plc',
  'software', 'media', 'entertainment', 'interactive', 'publishing', 'computer', 'computers', 'international',
  'electronics', 'technologies', 'technology', 'systems', 'group', 'the', 'consumables', 'licenses',
  'education', 'box', 'north', 'america', 'digital', 'pictures', 'creative', 'development', 'labs',
]);

/** Well-known brand spellings folded to one name. */
export const BRAND_ALIASES: ReadonlyMap<string, string> = new Map([
  ['hewlett', 'hp'], ['hewlett-packard', 'hp'], ['hewlettpackard', 'hp'], ['sm', 'samsung'],
  ['lge', 'lg'], ['scansoft', 'nuance'], ['macromedia', 'adobe'],
]);

/**
 * Offer kinds that make a listing a different purchase than the plain product even when the
 * title is otherwise the same: an upgrade licence, an academic licence, a refurbished unit.
 */
export const OFFER_KIND_WORDS: ReadonlyMap<string, string> = new Map([
  ['upgrade', 'upgrade'], ['upg', 'upgrade'], ['upgrd', 'upgrade'], ['upsell', 'upgrade'],
  ['academic', 'academic'], ['education', 'academic'], ['edu', 'academic'], ['student', 'academic'],
  ['refurbished', 'refurbished'], ['renewed', 'refurbished'], ['refurb', 'refurbished'], ['used', 'refurbished'],
]);
