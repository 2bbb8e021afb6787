import { synonymsOf } from './synonyms.js';

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

/**
 * A model number or size: a token with a digit ("s24", "wh1000xm5", "128gb", "15"). Never corrected,
 * completed, a correction or a completion: "iphone 15" must not find the iPhone 16, nor "s23" the S24.
 */
export const isModelNumber = (token: string): boolean => /\p{N}/u.test(token);

/** How many edits a query token may be corrected by: 1 from 5 letters, 2 from 9, none under 5 or for a model number. */
export function typoBudget(token: string): number {
  if (isModelNumber(token)) return 0;
  const n = [...token].length;
  return n >= 9 ? 2 : n >= 5 ? 1 : 0;
}

/** The vocabulary of indexed terms a forgiving query is expanded against (the in-memory index's, or the store's). */
export interface TermLookup {
  /**
   * Terms within `maxEdits` of `token` (optimal string alignment: insertion, deletion, substitution,
   * adjacent transposition), other than itself and without a digit; fewest edits first, then the
   * most listings, then code-point order; at most `limit`.
   */
  near(token: string, maxEdits: number, limit: number): string[];
  /** Terms that start with `prefix`, other than itself and without a digit; the most listings first, then code-point order; at most `limit`. */
  completions(prefix: string, limit: number): string[];
}

/**
 * One query token as every engine matches it: a listing matches the token when it holds any of
 * these terms. `exact` is the token and its synonyms; `near` its corrections and, for the last
 * word as it is typed, its completions. A listing that needs a `near` term for any token ranks
 * below every listing that matches all tokens exactly.
 */
export interface TermGroup { exact: string[]; near: string[] }

/** Corrections per token and completions of the last word: each widens the query's matching work. */
export const MAX_CORRECTIONS = 4;
export const MAX_COMPLETIONS = 8;
/** A last word shorter than this is not completed: "s" would stand for half the vocabulary. */
export const MIN_PREFIX = 2;

/** A query's tokens as the index holds them: its words (`searchWords`) in `indexTokens` form. */
export const queryTokens = (text: string): string[] => searchWords(text).flatMap((w) => indexTokens(w));

/**
 * The forgiving form of a search query (docs/search.md): each token with its synonyms, its
 * corrections (`typoBudget` edits) and, when the text ends inside a word (the user is typing it),
 * the completions of the last token. The one rule all three search paths apply; null when the
 * text has no word.
 */
export function forgivingQuery(text: string, vocab: TermLookup): TermGroup[] | null {
  const tokens = queryTokens(text);
  if (!tokens.length) return null;
  const typing = /[\p{L}\p{N}]$/u.test(text.normalize('NFKC'));
  return tokens.map((t, i) => {
    const exact = [t, ...synonymsOf(t)];
    const budget = typoBudget(t);
    const near = budget ? vocab.near(t, budget, MAX_CORRECTIONS) : [];
    if (typing && i === tokens.length - 1 && !isModelNumber(t) && [...t].length >= MIN_PREFIX) near.push(...vocab.completions(t, MAX_COMPLETIONS));
    return { exact, near: [...new Set(near)].filter((w) => !exact.includes(w)) };
  });
}

/** True when some token has a correction or completion: only then do exact matches need ranking apart. */
export const widened = (groups: TermGroup[]): boolean => groups.some((g) => g.near.length > 0);
