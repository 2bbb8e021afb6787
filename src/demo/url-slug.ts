const NON_ASCII = /[^\x20-\x7e]/;
const SEPARATORS = /[^a-z0-9]+/g;

/** URL path segment from the canonical English words (Vietnamese diacritics folded, đ -> d). */
export function slugOf(text: string): string {
  const slug = (NON_ASCII.test(text) ? foldAccents(text) : text).toLowerCase().replace(SEPARATORS, '-');
  const from = slug.charCodeAt(0) === 45 ? 1 : 0;
  const to = slug.charCodeAt(slug.length - 1) === 45 ? slug.length - 1 : slug.length;
  return from === 0 && to === slug.length ? slug : slug.slice(from, to);
}

/** Latin letters without their accents; anything still outside ASCII (Thai) becomes a space. */
function foldAccents(text: string): string {
  const folded = text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[đĐ]/g, 'd');
  let out = '';
  for (let k = 0; k < folded.length; k++) out += folded.charCodeAt(k) > 127 ? ' ' : folded[k];
  return out;
}
