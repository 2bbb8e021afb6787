const STROKED_D = /[đĐ]/g;

/**
 * "đ" and "Đ" as "d" and "D". They are letters of their own, not "d" with a combining mark: no
 * Unicode decomposition splits them, so stripping marks (or FTS5's remove_diacritics) keeps them,
 * and "dien thoai" never met "Điện thoại". Every normaliser of search text folds them first.
 */
export function foldStrokedD(text: string): string {
  return text.includes('đ') || text.includes('Đ') ? text.replace(STROKED_D, (c) => (c === 'đ' ? 'd' : 'D')) : text;
}

/**
 * The words of a search query: NFKC, đ folded, lower case, runs of letters and digits, at most 16.
 * Every search engine of the service (FTS5, tsvector, the in-memory index) starts from these words,
 * so they agree on what a query asks for; punctuation and operators in user text never form syntax.
 */
export function searchWords(text: string): string[] {
  return (foldStrokedD(text.normalize('NFKC')).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 16);
}

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const NON_ASCII = /[^ -~]/;
const LATIN_MARKS = /[\u0300-\u036f]/g;

/**
 * Text as every engine indexes it: compatibility forms folded (NFKC: fullwidth and halfwidth
 * letters, ligatures, superscripts) and đ folded to d, as a query's words are, so "usb" finds
 * "ＵＳＢ" and "dien" finds "Điện" (PostgreSQL's searchWords folds both too). SQLite FTS5 is
 * given its columns in this form.
 */
export function indexForm(text: string): string {
  return NON_ASCII.test(text) ? foldStrokedD(text.normalize('NFKC')) : text;
}

/** The category text a listing is searched by: its path's names, else its category. */
export const searchCategory = (path: string[] | null, category: string | null): string => (path ?? [category ?? '']).join(' ');

/** searchCategory in indexForm: the category text SQLite's full-text index is given. */
export const indexedCategory = (path: string[] | null, category: string | null): string => indexForm(searchCategory(path, category));

/**
 * Splits text, put in indexForm here, into tokens the way SQLite FTS5's `unicode61
 * remove_diacritics 2` tokenizer splits indexForm text: letters, digits and private-use characters
 * form tokens, everything else separates them (combining marks included), case is folded and Latin
 * diacritics removed ("Điện" -> "Diện" -> "dien": FTS5 itself keeps the stroke of đ, which
 * indexForm has already folded).
 */
export function indexTokens(text: string | null | undefined, out: string[] = []): string[] {
  if (!text) return out;
  for (const m of indexForm(text).toLowerCase().matchAll(TOKEN)) {
    const w = m[0];
    out.push(NON_ASCII.test(w) ? w.normalize('NFD').replace(LATIN_MARKS, '').normalize('NFC') : w);
  }
  return out;
}
