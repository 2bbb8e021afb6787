import type { QuotaService, WindowState } from './quota.js';

export type CredentialKind = 'api_key' | 'access_token' | 'admin_secret' | 'client_secret';

/**
 * Failed authentications counted per client address: past the limit in a minute, that address is
 * refused (429) before its credential is even checked, so neither keys nor the admin secret can be
 * guessed at speed. A valid key the cache holds never reaches this.
 */
export class AuthGuard {
  constructor(private readonly quota: QuotaService, readonly perMinute: number) {}

  /** The window that refuses this address, or null while it may try. */
  async refused(address: string): Promise<WindowState | null> {
    const d = await this.quota.peekFixed(bucket(address), 'minute', this.perMinute);
    return d.ok ? null : d.state;
  }

  /** Counts one failure; returns the address's failures this minute. */
  async failed(address: string): Promise<number> {
    return (await this.quota.fixed(bucket(address), 'minute', this.perMinute)).state.used;
  }
}

const bucket = (address: string) => `authfail:${address}`;
