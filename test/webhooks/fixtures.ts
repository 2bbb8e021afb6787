import type { Resolver } from '../../src/events/webhook-guard.js';

/** Names resolve where the table says; anything else does not resolve. No test here opens a connection. */
export function tableResolver(table: Record<string, string[]>, calls: string[] = []): Resolver {
  return async (host) => {
    calls.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** Every spelling of an address the guard must refuse, as a webhook url. */
export const REFUSED_URLS = [
  'https://127.0.0.1/hook', 'https://127.1/hook', 'https://2130706433/hook', 'https://0177.0.0.1/hook', 'https://0x7f000001/hook',
  'https://0x7f.0.0.1/hook', 'https://[::1]/hook', 'https://[::ffff:127.0.0.1]/hook', 'https://[::ffff:7f00:1]/hook',
  'https://[0:0:0:0:0:ffff:7f00:1]/hook', 'https://[::127.0.0.1]/hook', 'https://localhost/hook', 'https://LOCALHOST./hook',
  'https://api.localhost/hook', 'https://0.0.0.0/hook', 'https://0/hook', 'https://[::]/hook', 'https://10.0.0.1/hook',
  'https://172.16.5.4/hook', 'https://192.168.1.1/hook', 'https://169.254.169.254/latest/meta-data', 'https://0xa9fea9fe/',
  'https://[fd00:ec2::254]/', 'https://[fe80::1]/', 'https://[fc00::1]/', 'https://100.64.0.1/', 'https://100.100.100.200/',
  'https://224.0.0.1/', 'https://[ff02::1]/', 'https://255.255.255.255/', 'https://240.0.0.1/', 'https://192.0.2.10/',
  'https://[64:ff9b::7f00:1]/', 'https://[2002:7f00:1::]/', 'https://%31%32%37.0.0.1/', 'https://127.0.0.1./',
];
