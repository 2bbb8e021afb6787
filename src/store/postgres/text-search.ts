/**
 * Full-text search terms computed in one place for documents and queries, so PostgreSQL agrees
 * with the SQLite FTS5 index (unicode61, diacritics removed): words are runs of letters and
 * digits, lower-cased, accents and the stroke of đ folded, no stemming. The tsvector and tsquery are passed as their
 * literal forms, which bypasses the server's parser and locale: "C" and "en_US" databases index alike.
 */
import { foldStrokedD, searchCategory, type TermGroup } from '../../domain/search-text.js';

const WORD = /[\p{L}\p{N}]+/gu;
const MAX_QUERY_WORDS = 16;
const MAX_POSITION = 16383;

export function searchWords(text: string | null | undefined): string[] {
  if (!text) return [];
  return foldStrokedD(text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').normalize('NFKC')).toLowerCase().match(WORD) ?? [];
}

const lexeme = (w: string) => `'${w.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** `'samsung':1A 'galaxy':2A 'samsung':3B ...`: title weight A, brand B, category path C. */
export function tsvectorLiteral(title: string, brand: string | null, categoryPath: string[] | null, category: string | null): string {
  const parts: string[] = [];
  let pos = 0;
  const add = (text: string | null, weight: 'A' | 'B' | 'C') => {
    for (const w of searchWords(text)) {
      if (Buffer.byteLength(w) > 2000) continue;
      pos = Math.min(pos + 1, MAX_POSITION);
      parts.push(`${lexeme(w)}:${pos}${weight}`);
    }
  };
  add(title, 'A');
  add(brand, 'B');
  add(searchCategory(categoryPath, category), 'C');
  return parts.join(' ');
}

/** Every word required (AND), as on SQLite; null when the text has no word at all. */
export function tsqueryLiteral(text: string): string | null {
  const words = searchWords(text).slice(0, MAX_QUERY_WORDS);
  return words.length ? words.map(lexeme).join(' & ') : null;
}

/**
 * A forgiving query (`TermGroup`s) as a tsquery: every token required, each an OR of its terms;
 * `exactOnly` keeps each token's exact terms, the query whose matches rank first. The terms are in
 * the index's form already (diacritics folded as `searchWords` folds them).
 */
export function tsqueryGroups(groups: TermGroup[], exactOnly = false): string | null {
  const parts: string[] = [];
  for (const g of groups) {
    const terms = (exactOnly ? g.exact : [...g.exact, ...g.near]).flatMap((t) => searchWords(t));
    if (!terms.length) return null;
    parts.push(terms.length === 1 ? lexeme(terms[0]) : `(${terms.map(lexeme).join(' | ')})`);
  }
  return parts.length ? parts.join(' & ') : null;
}

/** ts_rank_cd weights {D, C, B, A}: title 10, brand 4, category 2, as the SQLite bm25 weights. */
export const RANK_WEIGHTS = "'{0.1, 0.2, 0.4, 1.0}'";
