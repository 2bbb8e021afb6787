// Title normalisation and tokenisation shared by profiles and similarity. Pure string work: the
// same input always yields the same tokens, which keeps stored profiles comparable over time.

const LATIN_WITH_MARKS = /(\p{Script=Latin})\p{M}+/gu;
const THAI_RUN = /\p{Script=Thai}+/u;
// Intl.Segmenter knows Thai word boundaries (Thai is written without spaces); created once because
// constructing one costs far more than segmenting a title.
const thaiSegmenter = new Intl.Segmenter('th', { granularity: 'word' });

/**
 * Lower-case, fold width forms (NFKC) and strip diacritics from Latin letters only, so
 * "Điện thoại" becomes "dien thoai" while Thai vowel and tone marks (also Unicode marks) survive.
 */
export function foldText(raw: string): string {
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

/** Phrase-level rewrites that are general product knowledge, applied before tokenising. */
function rewritePhrases(s: string): string {
  return s
    .replace(/jewel\s+case/g, ' ') // software packaging, not a phone case
    .replace(/creative\s+suite\s*(\d)/g, 'cs$1') // Adobe "Creative Suite 3" is "CS3"
    .replace(/\b(?:version|ver|v)\s*\.?\s*(\d)/g, ' $1') // "v. 11", "version 9", "v17" name a version number
    .replace(/(\d)\s+\.(\d)/g, '$1.$2') // "v3 .0" in scraped titles
    .replace(/\b(\d+)\.0\b(?!\.)/g, '$1') // "4.0" and "4" are the same version
    .replace(UNIT_RE, (_m, n: string, u: string) => ` ${n}${UNIT_ALIASES[u] ?? u} `);
}

export interface Tokenised {
  /** Word tokens in title order (Latin folded, Thai segmented), separators removed. */
  tokens: string[];
  /** Hyphen/slash-joined groups ("np-fh100" -> "npfh100"), candidates for model codes. */
  joined: string[];
}

/** Split folded text into tokens; also returns hyphen-joined groups for model-code detection. */
export function tokenise(raw: string): Tokenised {
  const s = rewritePhrases(foldText(raw));
  const tokens: string[] = [];
  const joined: string[] = [];
  // A "chunk" is a run without spaces, e.g. "dav-is50/b" or "8gb/128gb" or "(8gb+128gb)".
  for (const chunk of s.split(/[\s,;:()[\]{}|!?*&+]+/u)) {
    if (chunk === '') continue;
    const parts = chunk.split(/[^\p{L}\p{M}\p{N}.]+/u).map((p) => p.replace(/^\.+|\.+$/g, '')).filter((p) => p !== '');
    if (parts.length > 1) joined.push(parts.join(''));
    for (const part of parts) pushPart(part, tokens);
  }
  return { tokens, joined };
}

function pushPart(part: string, out: string[]): void {
  if (THAI_RUN.test(part)) {
    for (const seg of thaiSegmenter.segment(part)) {
      const w = seg.segment.trim();
      if (w !== '' && /[\p{L}\p{N}]/u.test(w)) out.push(w);
    }
    return;
  }
  // "iphone15" / "standard17": a word glued to a short number is two tokens; codes such as
  // "npfh100" (short letter prefix) or "davis50b" (letter suffix) are left whole.
  const glued = /^(\p{L}{5,})(\d{1,3})$/u.exec(part);
  if (glued) {
    out.push(glued[1], glued[2]);
    return;
  }
  // Dots only matter inside numbers ("10.4.6"); "dr." or "inc." lose theirs.
  out.push(/^\d+(\.\d+)+$/.test(part) ? part : part.replace(/\./g, ''));
}

const UNIT_TOKEN = /^(\d+(?:\.\d+)?)(gb|g|tb|mb|mah|w|hz|ghz|mhz|mp|mm|cm|kg|ml|in)$/;

/** `{ value, unit }` for a joined unit token such as "128gb" or "50in", else null. */
export function parseUnitToken(token: string): { value: number; unit: string } | null {
  const m = UNIT_TOKEN.exec(token);
  return m ? { value: Number(m[1]), unit: m[2] } : null;
}
