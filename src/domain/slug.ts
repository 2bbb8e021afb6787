import { TwoGenerationCache } from './id-caches.js';
import { foldStrokedD } from './search-text.js';

// Category names repeat on every listing; the memo stays small whatever the input.
const slugs = new TwoGenerationCache<string, string>(5_000);

/** Lower-case kebab slug of a category name: "Home & Living" -> "home-living", "Điện thoại" -> "dien-thoai". */
export function slugify(name: string): string {
  let slug = slugs.get(name);
  if (slug === undefined) {
    slug = foldStrokedD(name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')).toLowerCase()
      .replace(/&/g, ' ').replace(/[^a-z0-9\u0E00-\u0E7F]+/g, '-').replace(/^-+|-+$/g, '');
    slugs.set(name, slug);
  }
  return slug;
}
