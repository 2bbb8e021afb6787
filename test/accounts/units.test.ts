import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { normalizeScope } from '../../src/accounts/oauth.js';
import { SmtpMailer } from '../../src/accounts/smtp-mailer.js';
import { billingCycleEnd, DEFAULT_TIER_LIMITS, tierLimits } from '../../src/accounts/tiers.js';
import { KeyEvents } from '../../src/accounts/key-events.js';
import { sameHash, hashSecret } from '../../src/accounts/api-key.js';
import { loadConfig } from '../../src/config.js';
import { MemoryRateLimiter } from '../../src/limits/memory.js';
import { windowOf } from '../../src/limits/limiter.js';
import { tiersFile } from './setup.js';

describe('tiers', () => {
  it('defaults are the spec registration table, basic between free and pro', () => {
    expect(DEFAULT_TIER_LIMITS).toEqual({
      unverified: { perMinute: 5, perDay: 50 }, free: { perMinute: 60, perDay: 1000 }, basic: { perMinute: 120, perDay: 3000 },
      pro: { perMinute: 300, perDay: 10000 }, enterprise: { perMinute: 1000, perDay: 100000 },
    });
  });

  it('TIERS_FILE overrides per field; null is unlimited', () => {
    const config = loadConfig({ TIERS_FILE: tiersFile({ pro: { per_day: null }, free: { per_minute: 100, per_day: 2000 } }) });
    const t = tierLimits(config.tierOverrides);
    expect(t.pro).toEqual({ perMinute: 300, perDay: null });
    expect(t.free).toEqual({ perMinute: 100, perDay: 2000 });
    expect(t.basic).toEqual(DEFAULT_TIER_LIMITS.basic);
  });

  it.each([
    [{ platinum: { per_minute: 1 } }, /unknown tier/],
    [{ pro: { per_minute: 0 } }, /per_minute/],
    [{ pro: { per_day: 1.5 } }, /per_day/],
  ])('refuses %j at start', (file, msg) => {
    expect(() => tierLimits(loadConfig({ TIERS_FILE: tiersFile(file as never) }).tierOverrides)).toThrow(msg);
  });

  it('billing cycles end on the 1st of the next month, UTC', () => {
    expect(billingCycleEnd(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(billingCycleEnd(new Date('2026-02-01T00:00:00Z')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});

describe('MemoryRateLimiter', () => {
  it('counts per fixed window; a day resets at midnight UTC', async () => {
    const l = new MemoryRateLimiter();
    const t = new Date('2026-11-20T23:59:59Z');
    expect((await l.hit('k', 'day', t)).count).toBe(1);
    expect((await l.hit('k', 'day', t, 2)).count).toBe(3);
    expect((await l.peek('k', 'day', t)).count).toBe(3);
    expect((await l.peek('k', 'day', new Date('2026-11-21T00:00:00Z'))).count).toBe(0);
    expect((await l.hit('k', 'day', t)).resetAt.toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect((await l.hit('other', 'day', t)).count).toBe(1);
  });

  it('is atomic under concurrency', async () => {
    const l = new MemoryRateLimiter();
    const t = new Date();
    const counts = await Promise.all(Array.from({ length: 100 }, () => l.hit('c', 'minute', t)));
    expect(new Set(counts.map((c) => c.count)).size).toBe(100);
  });

  it('counts at once, and forgets the counters of windows that are over', () => {
    const l = new MemoryRateLimiter();
    const t = new Date('2026-11-20T12:00:30Z');
    expect(l.hitNow('a', 'minute', t).count).toBe(1);
    expect(l.hitNow('a', 'minute', t, 4).count).toBe(5);
    expect(l.hitNow('b', 'minute', t).count).toBe(1);
    const next = new Date('2026-11-20T12:01:00Z');
    expect(l.peekNow('a', 'minute', next).count).toBe(0);
    expect(l.hitNow('b', 'minute', next).count).toBe(1);
    // 'a' was not counted in the new window: its old counter is gone, not kept at zero.
    expect((l as unknown as { counters: Record<string, Map<string, unknown>> }).counters.minute.size).toBe(1);
    expect(l.peekNow('a', 'minute', t).count).toBe(0);
  });

  it('windows are epoch-aligned', () => {
    expect(windowOf('minute', new Date('2026-11-20T12:00:59.999Z')).resetAt.toISOString()).toBe('2026-11-20T12:01:00.000Z');
    expect(windowOf('hour', new Date('2026-11-20T12:30:00Z')).resetAt.toISOString()).toBe('2026-11-20T13:00:00.000Z');
  });
});

describe('small pieces', () => {
  it('normalizeScope: default, subset, refusal', () => {
    expect(normalizeScope(undefined, 'catalog:read offers:read')).toBe('catalog:read offers:read');
    expect(normalizeScope(' offers:read  catalog:read offers:read', 'catalog:read offers:read')).toBe('catalog:read offers:read');
    expect(normalizeScope('admin', 'catalog:read')).toBeNull();
  });

  it('sameHash compares digests in constant time and refuses empty ones', () => {
    expect(sameHash(hashSecret('a'), hashSecret('a'))).toBe(true);
    expect(sameHash(hashSecret('a'), hashSecret('b'))).toBe(false);
    expect(sameHash('', '')).toBe(false);
  });

  it('hashSecret is hex SHA-256 (known answers, FIPS 180-2)', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashSecret('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('KeyEvents: a listener runs once, and can unsubscribe first', () => {
    const e = new KeyEvents();
    let a = 0;
    let b = 0;
    e.onRevoked(1, () => a++);
    const off = e.onRevoked(1, () => b++);
    off();
    e.emitRevoked(1);
    e.emitRevoked(1);
    expect([a, b]).toEqual([1, 0]);
  });
});

describe('SmtpMailer', () => {
  it('speaks SMTP with AUTH PLAIN to a server', async () => {
    const seen: string[] = [];
    const server = createServer((sock) => {
      sock.setEncoding('utf8');
      sock.write('220 test ESMTP\r\n');
      let inData = false;
      let buf = '';
      sock.on('data', (chunk: string) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\r\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 2);
          seen.push(line);
          if (inData) {
            if (line === '.') { inData = false; sock.write('250 queued\r\n'); }
            continue;
          }
          if (line.startsWith('EHLO')) sock.write('250-test\r\n250 AUTH PLAIN\r\n');
          else if (line.startsWith('AUTH')) sock.write('235 ok\r\n');
          else if (line.startsWith('MAIL') || line.startsWith('RCPT')) sock.write('250 ok\r\n');
          else if (line === 'DATA') { inData = true; sock.write('354 go\r\n'); }
          else if (line === 'QUIT') { sock.write('221 bye\r\n'); sock.end(); }
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await new SmtpMailer(`smtp://user:p%40ss@127.0.0.1:${port}?from=noreply@catalog.test`).send({ to: 'ops@example.com', subject: 'Verify', text: 'link\n.hidden' });
    server.close();
    expect(seen).toContain(`AUTH PLAIN ${Buffer.from('\0user\0p@ss').toString('base64')}`);
    expect(seen).toContain('MAIL FROM:<noreply@catalog.test>');
    expect(seen).toContain('RCPT TO:<ops@example.com>');
    expect(seen).toContain('..hidden');
  });
});
