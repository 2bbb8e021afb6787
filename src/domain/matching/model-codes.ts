// Model numbers / MPNs: the strongest identity signal after a GTIN. Retail titles spell them many
// ways ("SM-A556B", "sm a556b", "KDC-C669" / "kdcc669"), so codes are compared on a folded form
// (lower-case alphanumerics) and on a stem without the short letter suffix that encodes colour or
// region ("f8n065blk" ~ "f8n065", "SM-A556B" ~ "SM-A556E").

import { parseUnitToken, tokenise } from './text.js';

// Mixed letter+digit tokens that are formats, networks or ordinals rather than product codes.
const NOT_A_CODE = /^(?:[345]g|[48]k|\d{3,4}[pi]|\d+(?:st|nd|rd|th)|\d+x|x\d+|mp[34]|h26[45]|usb\d|wifi\d|ddr\d|ipv[46]|\d+in1|\d+d)$/;

/** True for tokens that look like a model code: letters and digits mixed, or a long digit run. */
export function isModelCode(token: string): boolean {
  const n = token.length;
  if (n < 3 || n > 24) return false;
  let digits = 0;
  let asciiLetters = 0;
  for (let i = 0; i < n; i += 1) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) digits += 1;
    else if (c >= 97 && c <= 122) asciiLetters += 1;
    else return false; // Thai/other-script words, dots or upper case are never codes
  }
  if (digits === 0) return false;
  // Digit-only part numbers ("11052", "13102488"); four digits would be years or versions.
  if (asciiLetters === 0) return n >= 5;
  return !NOT_A_CODE.test(token) && parseUnitToken(token) === null;
}

/** Strong codes are long enough to be nearly unique in a large catalogue (used for global blocking). */
export function isStrongCode(code: string): boolean {
  return code.length >= 5;
}

/** The code without a trailing colour/region letter suffix of up to three letters. */
export function codeStem(code: string): string {
  const m = /^(.*\d)[a-z]{1,3}$/.exec(code);
  return m && m[1].length >= 4 ? m[1] : code;
}

const LETTERS_ONLY = /^[a-z]{1,4}$/;

/**
 * One code is the other plus a short word suffix ("eos40d" ~ "eos40dbody", "psw110" ~ "psw110bk"):
 * the shorter must be a strong code ending in a digit or letter run after a digit, the rest 1-4 letters.
 */
export function codePrefixMatch(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 5 || short.length === long.length || !long.startsWith(short)) return false;
  return LETTERS_ONLY.test(long.slice(short.length));
}

/** Same model when equal, when their stems agree and the stem still carries identity, or by prefix. */
export function codesMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const sa = codeStem(a);
  const sb = codeStem(b);
  return (sa === sb && sa.length >= 4) || codePrefixMatch(a, b);
}

const SPEC_CODE_KEY = /model|mpn|part|sku|code|m[aã]\s*s[aả]n\s*ph[aẩ]m|รุ่น/iu;

/**
 * Codes named by a listing: its MPN, model-like spec values, hyphen-joined title groups and
 * mixed tokens in the title. Order is kept (MPN first) because blocking uses the first few.
 */
export function extractCodes(
  tokens: readonly string[],
  joined: readonly string[],
  mpn: string | null,
  specs: Record<string, unknown> | null,
): string[] {
  const out: string[] = [];
  const add = (c: string): void => {
    if (isModelCode(c) && !out.includes(c)) out.push(c);
  };
  if (mpn) {
    const folded = tokenise(mpn);
    const whole = folded.tokens.join('');
    if (/\d/.test(whole)) add(whole);
  }
  if (specs) {
    for (const [key, value] of Object.entries(specs)) {
      if (typeof value !== 'string' || !SPEC_CODE_KEY.test(key)) continue;
      const t = tokenise(value);
      const whole = t.tokens.join('');
      if (t.tokens.length <= 3) add(whole);
      t.tokens.forEach(add);
    }
  }
  for (const group of joined) {
    // "8gb/128gb" or "win/mac" are not codes; a code group has at most four pieces.
    if (group.length <= 24 && !/(?:\d(?:gb|tb|mb))/.test(group)) add(group);
  }
  tokens.forEach(add);
  return out;
}
