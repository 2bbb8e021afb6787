// GTIN family (UPC-E excluded): EAN-8, UPC-A (12), EAN-13 and GTIN-14 are one number space once
// left-padded with zeros to 14 digits, so "012345678905" (UPC-A), "0012345678905" (EAN-13) and
// "00012345678905" (GTIN-14) are the same product identifier.

const VALID_LENGTHS = [8, 12, 13, 14] as const;

/** GS1 mod-10 check: weights 3,1,3,... from the rightmost data digit. */
export function gtinCheckDigit(dataDigits: string): number {
  let sum = 0;
  for (let i = dataDigits.length - 1, weight = 3; i >= 0; i -= 1, weight = 4 - weight) {
    sum += (dataDigits.charCodeAt(i) - 48) * weight;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * Canonical GTIN-14 for a raw code, or null when it is not a valid GTIN. Spaces and dashes that
 * feeds put in ("0 12345 67890 5") are ignored; a wrong check digit is rejected rather than
 * guessed, because a mistyped code would merge two unrelated products. All-zero codes are placeholders.
 */
export function normalizeGtin(raw: string): string | null {
  const digits = raw.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits) || !(VALID_LENGTHS as readonly number[]).includes(digits.length)) return null;
  const padded = digits.padStart(14, '0');
  if (/^0+$/.test(padded)) return null;
  const expected = gtinCheckDigit(padded.slice(0, 13));
  return expected === padded.charCodeAt(13) - 48 ? padded : null;
}

/**
 * Every text a listing may store for this canonical GTIN-14: ingest keeps a code as the feed wrote
 * it (spaces and dashes removed, no padding), so one product may be stored as its EAN-13, its
 * UPC-A or its GTIN-14. The forms are the GTIN-14 with its leading zeros cut to each valid length.
 */
export function gtinStoredForms(gtin14: string): string[] {
  return VALID_LENGTHS.filter((n) => /^0*$/.test(gtin14.slice(0, 14 - n))).map((n) => gtin14.slice(14 - n)).reverse();
}
