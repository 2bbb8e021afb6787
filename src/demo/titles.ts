import type { Platform } from './platforms.js';
import { TITLE_TAGS } from './platforms.js';
import { TECH_KINDS } from './kinds.js';
import type { Rng } from './prng.js';
import type { DemoProduct } from './products.js';

export interface TitleParts {
  /** The option the listing leads with (storage, volume), or '' when titles do not name it. */
  option: string;
  colour: string;
}

function storageText(rng: Rng, product: DemoProduct, option: string, platform: Platform): string {
  const ram = product.specs.ram;
  if (typeof ram !== 'string' || !option.endsWith('GB') || product.leaf.kind !== 'phone') return option;
  if (platform.region === 'us' || rng.chance(0.5)) return option;
  return rng.chance(0.5) ? `${ram.replace('GB', '')}/${option}` : `${ram}+${option}`;
}

/**
 * The seller's title: canonical words (brand, model, option) wrapped in each platform's habits.
 * Marketplace sellers add tags and local-language product words; US retailers use their own
 * punctuation; some name the model number, most do not.
 */
export function titleFor(rng: Rng, product: DemoProduct, platform: Platform, parts: TitleParts): string {
  const brand = product.brand.brand;
  const option = parts.option ? storageText(rng, product, parts.option, platform) : '';
  const colour = parts.colour && rng.chance(product.leaf.spec.colourInTitle) ? parts.colour : '';
  const extra = product.bundleExtra;
  switch (platform.family) {
    case 'amazon': {
      const b = rng.chance(0.3) ? brand.toUpperCase() : brand;
      const attrs = [option, colour].filter(Boolean).join(', ');
      const code = TECH_KINDS.has(product.leaf.kind) && rng.chance(0.35) && !product.name.includes(product.modelCode) ? ` ${product.modelCode}` : '';
      return `${b} ${product.name}${extra ? ' ' + extra : ''}${attrs ? ', ' + attrs : ''}${code}`;
    }
    case 'bestbuy':
      return `${brand} - ${product.name}${option ? ' ' + option : ''}${extra ? ' ' + extra : ''}${colour ? ' - ' + colour : ''}`;
    case 'walmart':
      return `${brand} ${product.name}${option ? ' ' + option : ''}${extra ? ' ' + extra : ''}${colour ? ', ' + colour : ''}`;
    default: {
      const tags = TITLE_TAGS[platform.region];
      const local = product.leaf.local[platform.region];
      const words: string[] = [];
      if (tags.prefix.length && rng.chance(0.35)) words.push(rng.pick(tags.prefix));
      if (local && rng.chance(platform.family === 'tiki' ? 0.85 : 0.6)) words.push(local);
      words.push(brand, product.name);
      if (option) words.push(option);
      if (extra) words.push(extra);
      if (colour) words.push(colour);
      if (TECH_KINDS.has(product.leaf.kind) && rng.chance(0.3) && !product.name.includes(product.modelCode)) words.push(rng.chance(0.5) ? `(${product.modelCode})` : product.modelCode);
      let title = words.join(' ');
      if (platform.family === 'tiki' && rng.chance(0.6)) title += ' - Hàng chính hãng';
      else if (tags.suffix.length && rng.chance(0.3)) title += rng.pick(tags.suffix);
      return title;
    }
  }
}
