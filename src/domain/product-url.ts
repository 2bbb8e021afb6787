/**
 * Product page URLs as a user holds them: copied from a browser, a share button or a feed. Ingest
 * stores a listing's URL as the feed wrote it, so a lookup compares canonical keys, and finds its
 * candidates through the few texts a stored URL of the same page is likely to be.
 */

// scheme, host (with any port), path, query, fragment
const PARTS = /^(https?):\/\/([^/?#\s]+)([^?#\s]*)(\?[^#\s]*)?(#\S*)?$/i;
// A reference without a scheme that starts with a host name and a path: "www.lazada.sg/products/x".
const BARE = /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?\/\S*$/i;
/** Query parameters that say where a click came from, never which page it is. */
const TRACKING = /^(utm_[a-z]+|gclid|fbclid|msclkid|yclid|dclid|mc_cid|mc_eid|igshid|spm|scm|ref|ref_src)$/i;

interface Parts { host: string; path: string; query: string }

function parts(text: string): Parts | null {
  const m = PARTS.exec(text.trim());
  if (!m) return null;
  const host = m[2].toLowerCase().replace(/:(80|443)$/, '');
  if (host.includes('@')) return null; // credentials in a URL: never a product page reference
  return { host, path: m[3], query: m[4] ?? '' };
}

/** An http(s) URL, or a host-and-path reference without a scheme (read as https). */
export function isProductUrl(text: string): boolean {
  return parts(text) !== null || BARE.test(text.trim());
}

/** The URL with a scheme: a bare "host/path" reference is read as https. */
function withScheme(text: string): string {
  const t = text.trim();
  return /^https?:\/\//i.test(t) ? t : `https://${t}`;
}

function withoutTracking(query: string): string {
  if (!query || query === '?') return '';
  const kept = query.slice(1).split('&').filter((p) => p && !TRACKING.test(p.split('=')[0]));
  return kept.length ? `?${kept.join('&')}` : '';
}

/**
 * What two URLs of the same product page share: the scheme (http or https), letter case of the
 * host, a leading `www.`, a default port, a trailing slash, the fragment and tracking parameters
 * (utm_*, gclid, ...) do not count; the path and the other parameters, in their order, do.
 * Null when the text is no http(s) URL.
 */
export function productUrlKey(text: string): string | null {
  const p = parts(withScheme(text));
  if (!p) return null;
  const path = p.path.replace(/\/+$/, '');
  return `${p.host.replace(/^www\./, '')}${path}${withoutTracking(p.query)}`;
}

/**
 * The stored texts a lookup tries for a URL (one indexed read each, batched): the URL as given,
 * and its page under http and https, with and without `www.`, with and without a trailing slash,
 * with its query as given and without tracking parameters. A stored URL among them is kept only
 * when its key (`productUrlKey`) is the URL's.
 */
export function productUrlCandidates(text: string): string[] {
  const p = parts(withScheme(text));
  if (!p) return [];
  const bare = p.host.replace(/^www\./, '');
  const path = p.path.replace(/\/+$/, '');
  const queries = [...new Set([p.query, withoutTracking(p.query)])];
  const out = new Set<string>([text.trim()]);
  for (const scheme of ['https', 'http']) {
    for (const host of [bare, `www.${bare}`]) {
      for (const tail of path ? [path, `${path}/`] : ['', '/']) {
        for (const q of queries) out.add(`${scheme}://${host}${tail}${q}`);
      }
    }
  }
  return [...out];
}
