import { describe, expect, it } from 'vitest';
import { addressRefusal } from '../../src/domain/webhook-address.js';
import { AddressGuard } from '../../src/events/webhook-guard.js';
import { REFUSED_URLS, tableResolver } from './fixtures.js';

describe('address classification', () => {
  it.each([
    ['127.0.0.1', 'loopback'], ['::1', 'loopback'], ['::ffff:127.0.0.1', 'loopback'], ['10.1.2.3', 'private'], ['172.31.0.1', 'private'],
    ['192.168.0.1', 'private'], ['169.254.1.1', 'linkLocal'], ['fe80::1', 'linkLocal'], ['fd12::1', 'uniqueLocal'], ['100.64.0.1', 'carrierGradeNat'],
    ['224.1.1.1', 'multicast'], ['ff05::2', 'multicast'], ['0.0.0.0', 'unspecified'], ['::', 'unspecified'], ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'], ['169.254.169.254', 'metadata'], ['fd00:ec2::254', 'metadata'], ['::ffff:169.254.169.254', 'metadata'],
    ['::7f00:1', 'IPv4-compatible'], ['64:ff9b::a00:1', 'rfc6052'], ['2001::1', 'teredo'],
  ])('%s is refused (%s)', (address, why) => {
    expect(addressRefusal(address)).toContain(why);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is a public address', (address) => {
    expect(addressRefusal(address)).toBeNull();
  });
});

describe('AddressGuard', () => {
  const guard = new AddressGuard([], tableResolver({ 'hooks.example.com': ['93.184.215.14'] }));

  it.each(REFUSED_URLS)('refuses %s', async (url) => {
    const r = await guard.target(url);
    expect(r.ok).toBe(false);
  });

  it('requires https, and no credentials in the url', async () => {
    expect(guard.checkUrl('http://hooks.example.com/x')).toEqual({ ok: false, reason: 'url must use https' });
    expect(guard.checkUrl('ftp://hooks.example.com/x').ok).toBe(false);
    expect(guard.checkUrl('https://u:p@hooks.example.com/x').ok).toBe(false);
    expect(guard.checkUrl('not a url').ok).toBe(false);
    expect(guard.checkUrl(`https://hooks.example.com/${'a'.repeat(2100)}`).ok).toBe(false);
  });

  it('resolves the host, and refuses it when any address it has is refused', async () => {
    const calls: string[] = [];
    const g = new AddressGuard([], tableResolver({
      'hooks.example.com': ['93.184.215.14'], 'mixed.example.com': ['93.184.215.14', '10.0.0.1'], 'meta.example.com': ['169.254.169.254'],
      'mapped.example.com': ['::ffff:127.0.0.1'],
    }, calls));
    const ok = await g.target('https://hooks.example.com/x');
    expect(ok).toMatchObject({ ok: true, target: { address: '93.184.215.14', family: 4 } });
    expect(await g.target('https://mixed.example.com/x')).toMatchObject({ ok: false, code: 'address_refused' });
    expect(await g.target('https://meta.example.com/x')).toMatchObject({ ok: false, code: 'address_refused', reason: expect.stringContaining('metadata') });
    expect(await g.target('https://mapped.example.com/x')).toMatchObject({ ok: false, code: 'address_refused' });
    expect(await g.target('https://nowhere.example.com/x')).toMatchObject({ ok: false, code: 'dns_error' });
    expect(calls).toEqual(['hooks.example.com', 'mixed.example.com', 'meta.example.com', 'mapped.example.com', 'nowhere.example.com']);
  });

  it('WEBHOOK_ALLOW_HOSTS exempts listed hosts (any letter case) from https and the address check, and only them', async () => {
    const g = new AddressGuard(['LocalHost', '127.0.0.1', '[::1]'], tableResolver({ localhost: ['127.0.0.1'] }));
    expect(await g.target('http://localhost:8080/x')).toMatchObject({ ok: true, target: { address: '127.0.0.1' } });
    expect(await g.target('http://127.0.0.1:9/x')).toMatchObject({ ok: true, target: { address: '127.0.0.1' } });
    expect(await g.target('http://[::1]:9/x')).toMatchObject({ ok: true, target: { address: '::1', family: 6 } });
    expect((await g.target('http://127.0.0.2/x')).ok).toBe(false);
    expect((await g.target('https://10.0.0.1/x')).ok).toBe(false);
    expect(g.hasExemptions).toBe(true);
  });
});
