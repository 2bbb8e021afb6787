import type { IncomingHttpHeaders } from 'node:http';
import { SEA_COUNTRIES } from '../../domain/currencies.js';

export type V2Region = 'us' | 'sg' | 'sea';

/** Country headers set by common proxies and CDNs, in the order they are trusted. */
const COUNTRY_HEADERS = ['cf-ipcountry', 'cloudfront-viewer-country', 'x-vercel-ip-country', 'x-country-code'];

/** A country code -> the V2 region it belongs to; null for a market the catalog does not serve. */
function regionOfCountry(code: string): V2Region | null {
  const c = code.toUpperCase();
  if (c === 'US') return 'us';
  if (c === 'SG') return 'sg';
  return SEA_COUNTRIES.includes(c) ? 'sea' : null;
}

/**
 * `region=auto` (docs/api.md, V2): the first country header a proxy set, else the region subtag of
 * the first Accept-Language entry that has one (`en-SG` -> sg, `vi-VN` -> sea, `en-US` -> us);
 * a country outside the catalog's markets, or nothing to go by, means every market (null).
 */
export function detectRegion(headers: IncomingHttpHeaders): V2Region | null {
  for (const name of COUNTRY_HEADERS) {
    const v = headers[name];
    if (typeof v === 'string' && /^[A-Za-z]{2}$/.test(v.trim())) return regionOfCountry(v.trim());
  }
  const lang = headers['accept-language'];
  if (typeof lang === 'string') {
    for (const part of lang.split(',')) {
      const m = /^\s*[A-Za-z]{2,3}-([A-Za-z]{2})\b/.exec(part);
      if (m) return regionOfCountry(m[1]);
    }
  }
  return null;
}

/** The countries of a region (us, sg, sea). */
export function countriesOfRegion(region: V2Region): string[] {
  return region === 'us' ? ['US'] : region === 'sg' ? ['SG'] : SEA_COUNTRIES;
}
