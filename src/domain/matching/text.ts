// Title normalisation and tokenisation shared by profiles and similarity. Pure string work: the
// same input always yields the same tokens, which keeps stored profiles comparable over time.

const LATIN_WITH_MARKS = /(\p{Script=Latin})\p{M}+/gu;
// ASCII titles (most of a Western catalogue) skip Unicode normalisation and Unicode-property regexes.
const NON_ASCII = /[^\t\n\r\x20-\x7e]/;
// Thai block U+0E00-U+0E7F: only titles containing it pay for Intl.Segmenter.
const THAI_CHAR = /[\u0e00-\u0e7f]/;
// Intl.Segmenter knows Thai word boundaries (Thai is written without spaces); created once because
// constructing one costs far more than segmenting a title.
const thaiSegmenter = new Intl.Segmenter('th', { granularity: 'word' });

/**
 * Lower-case, fold width forms (NFKC) and strip diacritics from Latin letters only, so
 * "Điện thoại" becomes "dien thoai" while Thai vowel and tone marks (also Unicode marks) survive.
 */
export function foldText(raw: string): string {
  if (!NON_ASCII.test(raw)) return raw.toLowerCase();
  return raw
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[đð]/g, 'd')
    .normalize('NFKD')
    .replace(LATIN_WITH_MARKS, '$1')
    .normalize('NFC');
}

// Units written apart or together ("128 GB", "128gb", "50 '") are joined into one token with a
// canonical unit so both spellings meet. Inches appear as ", '', ' or "inch" in retail titles.
const UNIT_ALIASES: Record<string, string> = {
  gb: 'gb', g: 'g', tb: 'tb', mb: 'mb', mah: 'mah', w: 'w', hz: 'hz', ghz: 'ghz', mhz: 'mhz', mp: 'mp',
  mm: 'mm', cm: 'cm', kg: 'kg', ml: 'ml', inch: 'in', inches: 'in', in: 'in', '"': 'in', "''": 'in', "'": 'in',
};
const UNIT_RE = /(\d+(?:\.\d+)?)\s*-?\s*(gb|tb|mb|mah|ghz|mhz|hz|mp|mm|cm|kg|ml|inches|inch|in|w|''|'|")(?![\p{L}\p{N}])/gu;

const JEWEL_CASE = /jewel\s+case/g;
const CREATIVE_SUITE = /creative\s+suite\s*(\d)/g;
const VERSION_WORD = /\b(?:version|ver|v)\s*\.?\s*(\d)/g;
const SPACED_DOT = /(\d)\s+\.(\d)/g;
const DOT_ZERO = /\b(\d+)\.0\b(?!\.)/g;
const HAS_DIGIT = /\d/;

/** Phrase-level rewrites that are general product knowledge, applied before tokenising. */
function rewritePhrases(s: string): string {
  if (s.includes('jewel')) s = s.replace(JEWEL_CASE, ' '); // software packaging, not a phone case
  if (!HAS_DIGIT.test(s)) return s;
  if (s.includes('suite')) s = s.replace(CREATIVE_SUITE, 'cs$1'); // Adobe "Creative Suite 3" is "CS3"
  if (s.includes('v')) s = s.replace(VERSION_WORD, ' $1'); // "v. 11", "version 9", "v17" name a version number
  if (s.includes(' .')) s = s.replace(SPACED_DOT, '$1.$2'); // "v3 .0" in scraped titles
  if (s.includes('.0')) s = s.replace(DOT_ZERO, '$1'); // "4.0" and "4" are the same version
  return s.replace(UNIT_RE, (_m, n: string, u: string) => ` ${n}${UNIT_ALIASES[u] ?? u} `);
}

export interface Tokenised {
  /** Word tokens in title order (Latin folded, Thai segmented), separators removed. */
  tokens: string[];
  /** Hyphen/slash-joined groups ("np-fh100" -> "npfh100"), candidates for model codes. */
  joined: string[];
  /** The folded title before phrase rewrites (for pack-quantity and bundle patterns). */
  folded: string;
}

const CHUNK_SPLIT = /[\s,;:()[\]{}|!?*&+]+/u;
const PART_SPLIT = /[^\p{L}\p{M}\p{N}.]+/u;
const PART_SPLIT_ASCII = /[^a-z0-9.]+/;
const EDGE_DOTS = /^\.+|\.+$/g;
const GLUED = /^(\p{L}{5,})(\d{1,3})$/u;
const GLUED_ASCII = /^([a-z]{5,})(\d{1,3})$/;
const DOTTED_NUMBER = /^\d+(\.\d+)+$/;
const WORDLIKE = /[\p{L}\p{N}]/u;

/** Split folded text into tokens; also returns hyphen-joined groups for model-code detection. */
export function tokenise(raw: string): Tokenised {
  const folded = foldText(raw);
  const s = rewritePhrases(folded);
  const ascii = !NON_ASCII.test(s);
  const thai = !ascii && THAI_CHAR.test(s);
  const partSplit = ascii ? PART_SPLIT_ASCII : PART_SPLIT;
  const tokens: string[] = [];
  const joined: string[] = [];
  // A "chunk" is a run without spaces, e.g. "dav-is50/b" or "8gb/128gb" or "(8gb+128gb)".
  for (const chunk of s.split(CHUNK_SPLIT)) {
    if (chunk === '') continue;
    const pieces = chunk.split(partSplit);
    let kept = 0;
    let glue = '';
    for (let part of pieces) {
      if (part.includes('.')) part = part.replace(EDGE_DOTS, '');
      if (part === '') continue;
      kept += 1;
      glue += part;
      pushPart(part, tokens, ascii, thai);
    }
    if (kept > 1) joined.push(glue);
  }
  return { tokens, joined, folded };
}

const VOWELS = /[aeiouy]/g;

function countVowels(word: string): number {
  return word.match(VOWELS)?.length ?? 0;
}

function pushPart(part: string, out: string[], ascii: boolean, thai: boolean): void {
  if (thai && THAI_CHAR.test(part)) {
    for (const seg of thaiSegmenter.segment(part)) {
      const w = seg.segment.trim();
      if (w !== '' && WORDLIKE.test(w)) out.push(w);
    }
    return;
  }
  // "iphone15" / "standard17": a word glued to a short number is two tokens; codes such as
  // "npfh100" (short letter prefix) or "davis50b" (letter suffix) are left whole.
  const glued = (ascii ? GLUED_ASCII : GLUED).exec(part);
  // ...but a consonant run ("vwvbg130", "dhtfs5") is a model code, not a word: kept whole.
  if (glued && countVowels(glued[1]) >= 2) {
    out.push(glued[1], glued[2]);
    return;
  }
  // Dots only matter inside numbers ("10.4.6"); "dr." or "inc." lose theirs.
  if (!part.includes('.')) out.push(part);
  else out.push(DOTTED_NUMBER.test(part) ? part : part.replace(/\./g, ''));
}

const UNIT_TOKEN = /^(\d+(?:\.\d+)?)(gb|g|tb|mb|mah|w|hz|ghz|mhz|mp|mm|cm|kg|ml|in)$/;

/** `{ value, unit }` for a joined unit token such as "128gb" or "50in", else null. */
export function parseUnitToken(token: string): { value: number; unit: string } | null {
  const m = UNIT_TOKEN.exec(token);
  return m ? { value: Number(m[1]), unit: m[2] } : null;
}
