import { lookup } from 'node:dns/promises';
import { addressRefusal, ipLiteral } from '../domain/webhook-address.js';

/** Resolves a host name to every address it has (dns.lookup with all: true); tests inject their own. */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** Where an attempt connects: the url, and the address that was checked (the connection goes there, whatever DNS says next). */
export interface DeliveryTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type UrlCheck = { ok: true; url: URL; exempt: boolean } | { ok: false; reason: string };
export type TargetCheck = { ok: true; target: DeliveryTarget } | { ok: false; code: 'address_refused' | 'dns_error'; reason: string };

const MAX_URL = 2048;

/** A host as compared with WEBHOOK_ALLOW_HOSTS: lower case, no brackets, no trailing dot. */
function hostKey(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

/**
 * The address guard of webhook urls (SSRF): HTTPS only, and every address the host resolves to
 * must be public (domain/webhook-address.ts), at registration and again before every attempt.
 * The attempt then connects to the address that was checked, so a name that resolves elsewhere a
 * moment later (DNS rebinding) changes nothing. URL parsing (WHATWG) turns every spelling of an
 * IPv4 address (decimal 2130706433, octal 0177.0.0.1, hex 0x7f000001, short 127.1) into the dotted
 * form first, and IPv4-mapped IPv6 is judged as its IPv4 address.
 *
 * Hosts in WEBHOOK_ALLOW_HOSTS skip the HTTPS rule and the address check (local development and
 * tests only); they are still connected to by the address resolved for the check.
 */
export class AddressGuard {
  private readonly allowed: ReadonlySet<string>;

  constructor(allowHosts: readonly string[], private readonly resolve: Resolver = systemResolver) {
    this.allowed = new Set(allowHosts.map(hostKey));
  }

  /** The url's form: absolute, HTTPS (unless exempt), no credentials, and not an IP literal the guard refuses. */
  checkUrl(raw: string): UrlCheck {
    if (raw.length > MAX_URL) return { ok: false, reason: `url must be at most ${MAX_URL} characters` };
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, reason: 'url must be an absolute https:// URL' };
    }
    const exempt = this.allowed.has(hostKey(url.hostname));
    if (url.protocol !== 'https:' && !(exempt && url.protocol === 'http:')) return { ok: false, reason: 'url must use https' };
    if (url.username || url.password) return { ok: false, reason: 'url must not carry a user name or password' };
    if (!url.hostname) return { ok: false, reason: 'url must name a host' };
    if (!exempt) {
      const literal = ipLiteral(url.hostname);
      const refusal = literal ? addressRefusal(literal) : null;
      if (refusal) return { ok: false, reason: `url host refused: ${refusal}` };
      const name = hostKey(url.hostname);
      if (name === 'localhost' || name.endsWith('.localhost')) return { ok: false, reason: 'url host refused: localhost is a loopback name' };
    }
    return { ok: true, url, exempt };
  }

  /** Resolves the url's host and checks every address it has; the target is the first address. */
  async target(raw: string): Promise<TargetCheck> {
    const form = this.checkUrl(raw);
    if (!form.ok) return { ok: false, code: 'address_refused', reason: form.reason };
    const host = hostKey(form.url.hostname);
    const literal = ipLiteral(host);
    let addresses: Array<{ address: string; family: number }>;
    if (literal) addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
    else {
      try {
        addresses = await this.resolve(host);
      } catch (e) {
        return { ok: false, code: 'dns_error', reason: `url host ${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? 'lookup failed'})` };
      }
    }
    if (!addresses.length) return { ok: false, code: 'dns_error', reason: `url host ${host} has no address` };
    if (!form.exempt) {
      // One refused address refuses the host: which address a client would pick is not ours to guess.
      for (const a of addresses) {
        const refusal = addressRefusal(a.address);
        if (refusal) return { ok: false, code: 'address_refused', reason: `url host ${host} resolves to a refused address: ${refusal}` };
      }
    }
    const first = addresses[0];
    return { ok: true, target: { url: form.url, address: first.address, family: first.family === 6 ? 6 : 4 } };
  }

  /** True when WEBHOOK_ALLOW_HOSTS lists anything (serve logs a warning). */
  get hasExemptions(): boolean {
    return this.allowed.size > 0;
  }
}
