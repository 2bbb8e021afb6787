/** GS1 check digit for a GTIN body (all digits but the last): weights 3,1,3,... from the right. */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let k = 0; k < body.length; k++) {
    const d = body.charCodeAt(body.length - 1 - k) - 48;
    sum += k % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

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
