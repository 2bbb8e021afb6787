import { digest } from './digest.js';

const VARIANT = '89ab';

/** Stable UUID (version 5 layout) from (source, sku): the same listing has the same UUID in every store. */
export function listingUuid(source: string, sku: string): string {
  const text = `catalog-listing\u0000${source}\u0000${sku}`;
  const x = digest('sha1', text, 'hex');
  // Byte 6's high nibble is the version (5), byte 8's top two bits the variant (10).
  const variant = VARIANT[parseInt(x[16], 16) & 3];
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-5${x.slice(13, 16)}-${variant}${x.slice(17, 20)}-${x.slice(20, 32)}`;
}

const INTEGER = /^\d{1,15}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A listing UUID in any letter case. */
export function isUuid(ref: string): boolean {
  return UUID.test(ref);
}

/** An integer listing id as text (at most 15 digits: exact as a JavaScript number). */
export function isIntegerId(ref: string): boolean {
  return INTEGER.test(ref);
}
