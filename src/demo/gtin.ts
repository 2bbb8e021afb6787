import { gtinCheckDigit } from '../domain/gtin.js';

export { gtinCheckDigit };

/** A GTIN of 8, 12, 13 or 14 digits exactly as written (no spaces), its check digit right. */
export function isValidGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(code)) return false;
  return gtinCheckDigit(code.slice(0, -1)) === code.charCodeAt(code.length - 1) - 48;
}

/**
 * GTIN-13 from a 3-digit GS1 prefix and a product number. The nine digits after the prefix are
 * a bijection of the product number, so two demo products never share a GTIN.
 */
export function makeGtin13(prefix: string, product: number): string {
  const item = (product * 7_654_321 + 104_729) % 1_000_000_000;
  const body = prefix + String(item).padStart(9, '0');
  return body + gtinCheckDigit(body);
}
