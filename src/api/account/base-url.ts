import type { Container } from '../../container.js';

/** The origin of links and the OAuth issuer: PUBLIC_URL, else (development) the listen address. Never the Host header. */
export function baseUrl(c: Container): string {
  return c.origin();
}
