import { formDecoded } from './form-value.js';

/**
 * Where credentials can hide in a request, by the name the server decodes, not the bytes the client
 * sent: `?api%5Fkey=`, `?API_KEY=` and `?api_key=a&api_key=b` are one credential each.
 */
const CREDENTIAL_NAMES = new Set([
  'api_key', 'apikey', 'x_api_key', 'token', 'access_token', 'refresh_token', 'id_token', 'code_verifier',
  'client_secret', 'password', 'secret', 'admin_secret', 'x_admin_secret', 'authorization', 'proxy_authorization', 'cookie',
]);

export const REDACTED = '[REDACTED]';

/** A parameter or member name as it is compared: percent-decoded, lower case, `-` as `_`, no `[]`. */
export function canonicalName(raw: string): string {
  // A malformed escape is compared as sent; the decoded form cannot name a credential either.
  const name = formDecoded(raw) ?? raw.replace(/\+/g, ' ');
  return name.trim().toLowerCase().replace(/-/g, '_').replace(/\[\]$/, '');
}

export const isCredentialName = (raw: string): boolean => CREDENTIAL_NAMES.has(canonicalName(raw));

/** Maps each `name=value` of a URL's query; untouched when no parameter is a credential. */
function mapQuery(url: string, each: (part: string, name: string) => string | null): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url.slice(q + 1).split('&');
  let changed = false;
  const out: string[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    if (!isCredentialName(name)) {
      out.push(part);
      continue;
    }
    changed = true;
    const replaced = each(part, name);
    if (replaced !== null) out.push(replaced);
  }
  if (!changed) return url;
  return out.length ? `${url.slice(0, q)}?${out.join('&')}` : url.slice(0, q);
}

/** The URL as a log may show it: every credential's value replaced. */
export const redactUrl = (url: string): string => mapQuery(url, (_part, name) => `${name}=${REDACTED}`);

/** The URL without its credentials (a response-cache key is the same for every way of sending a key). */
export const withoutCredentials = (url: string): string => mapQuery(url, () => null);

/**
 * A JSON-like value with every credential member's value, and every key-shaped string, replaced at
 * any depth: a copy, or the value itself when it holds none.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  // Class instances (a request, an error) are left to their serializers: a copy would lose their getters.
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null && !Array.isArray(value)) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((v, i) => {
      const r = redactValue(v, depth + 1);
      if (r !== v) (copy ??= [...value])[i] = r;
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    const r = isCredentialName(k) ? (v === undefined ? v : REDACTED) : redactValue(v, depth + 1);
    if (r !== v) (copy ??= { ...(value as Record<string, unknown>) })[k] = r;
  }
  return copy ?? value;
}

/** Key-shaped and token-shaped strings inside free text (an error message quoting a body). */
export function redactText(text: string): string {
  if (!text.includes('_')) return text;
  return text.replace(/\b(ck|ccs|cat|cv)_[A-Za-z0-9_-]{8,}/g, `$1_${REDACTED}`);
}
