import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryMailer } from '../../src/accounts/mailer.js';
import { accountsHarness, type AccountsHarness } from './setup.js';

let h: AccountsHarness;
beforeEach(async () => {
  h = await accountsHarness({ REGISTRATION_PER_IP_PER_HOUR: '3', REGISTRATION_DAILY_CAP: '5', PUBLIC_URL: 'https://catalog.test' });
});
afterEach(() => h.close());

const register = (body: object, query = '', ip = '10.0.0.1') =>
  h.app.inject({ method: 'POST', url: `/v1/auth/register${query}`, payload: body, remoteAddress: ip });

describe('POST /v1/auth/register', () => {
  it('verify=false returns a working key in the unverified tier at once', async () => {
    const res = await register({ agent_name: 'shopper-bot 1.0' }, '?verify=false');
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ tier: 'unverified', limits: { per_minute: 5, per_day: 50 }, verification: null });
    expect(body.api_key).toMatch(/^ck_/);
    const me = await h.app.inject({ url: '/v1/auth/me', headers: { authorization: `Bearer ${body.api_key}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ tier: 'unverified', name: 'shopper-bot 1.0', verified: false, auth: 'api_key' });
  });

  it('stores only the hash of the key', async () => {
    const { api_key: key, key_id: id } = (await register({ agent_name: 'a' }, '?verify=false')).json();
    const rec = await h.c.store.keys.findById(id);
    expect(rec?.hash).not.toContain(key);
    expect(JSON.stringify(rec)).not.toContain(key);
  });

  it.each([
    [{}, 'missing'],
    [{ agent_name: '' }, 'string_too_short'],
    [{ agent_name: 'x'.repeat(65) }, 'string_too_long'],
    [{ agent_name: '<script>' }, 'pattern'],
    [{ agent_name: 'ok', email: 'not-an-email' }, 'pattern'],
    [{ agent_name: 'ok', email: 'a@b.co\r\nBcc: x@y.z' }, 'pattern'],
  ])('rejects %j with 422 (%s)', async (body, type) => {
    const res = await register(body, '?verify=false');
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.details.errors[0].type).toBe(type);
  });

  it('verify=true without an email is a 422 that says how to skip', async () => {
    const res = await register({ agent_name: 'bot' }, '?verify=true');
    expect(res.statusCode).toBe(422);
    expect(res.json().error.message).toMatch(/verify=false/);
  });

  it('an email registration mails a link; following it moves the key to free, once', async () => {
    const res = await register({ agent_name: 'bot', email: 'ops@example.com' });
    expect(res.statusCode).toBe(201);
    expect(res.json().verification).toMatchObject({ status: 'pending', email: 'ops@example.com' });
    const { api_key: key } = res.json();
    expect(h.mailer.sent).toHaveLength(1);
    expect(h.mailer.sent[0].to).toBe('ops@example.com');
    expect(h.mailer.sent[0].text).toContain('https://catalog.test/v1/auth/verify?token=cv_');
    expect(h.mailer.sent[0].text).not.toContain(key);
    const token = h.mailer.lastToken();
    const ok = await h.app.inject({ url: `/v1/auth/verify?token=${token}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ verified: true, tier: 'free' });
    const me = await h.app.inject({ url: '/v1/auth/me', headers: { authorization: `Bearer ${key}` } });
    expect(me.json()).toMatchObject({ tier: 'free', verified: true, limits: { per_minute: 60, per_day: 1000 } });
    const again = await h.app.inject({ url: `/v1/auth/verify?token=${token}` });
    expect(again.statusCode).toBe(400);
  });

  it('a verification link expires after 24 hours', async () => {
    await register({ agent_name: 'bot', email: 'ops@example.com' });
    h.clock.advance(24 * 3600 * 1000 + 1);
    const res = await h.app.inject({ url: `/v1/auth/verify?token=${h.mailer.lastToken()}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/expired/);
  });

  it('an unknown token is refused', async () => {
    expect((await h.app.inject({ url: '/v1/auth/verify?token=cv_nope' })).statusCode).toBe(400);
    expect((await h.app.inject({ url: '/v1/auth/verify?token=zz' })).statusCode).toBe(400);
  });

  it('throttles per IP per hour with the rate_limit body and Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await register({ agent_name: `b${i}` }, '?verify=false')).statusCode).toBe(201);
    const res = await register({ agent_name: 'b4' }, '?verify=false');
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBe(3600);
    expect(res.json()).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String), doc_url: '/docs' },
      rate_limit: { retry_after: 3600, limit: 3, remaining: 0, reset_at: '2026-11-20T13:00:00.000Z' },
    });
    expect((await register({ agent_name: 'other-ip' }, '?verify=false', '10.0.0.2')).statusCode).toBe(201);
    h.clock.advance(3600 * 1000);
    expect((await register({ agent_name: 'b5' }, '?verify=false')).statusCode).toBe(201);
  });

  it('caps registrations per UTC day across all IPs', async () => {
    for (let i = 0; i < 5; i++) expect((await register({ agent_name: `b${i}` }, '?verify=false', `10.1.0.${i}`)).statusCode).toBe(201);
    const res = await register({ agent_name: 'b6' }, '?verify=false', '10.1.0.9');
    expect(res.statusCode).toBe(429);
    expect(res.json().rate_limit.reset_at).toBe('2026-11-21T00:00:00.000Z');
  });

  it('a request without a key gets 401 with the registration instructions', async () => {
    const res = await h.app.inject({ url: '/v1/auth/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('MISSING_API_KEY');
    expect(res.json().error.details.register).toMatch(/POST \/v1\/auth\/register/);
  });
});

describe('DirectoryMailer', () => {
  it('writes the message (with the link) to a private file and logs only where', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mail-')), 'mail');
    const lines: string[] = [];
    await new DirectoryMailer(dir, (l) => lines.push(l)).send({ to: 'a@b.c\r\nBcc: x@y.z', subject: 's', text: 'open https://x/v1/auth/verify?token=cv_1' });
    const [name] = readdirSync(dir);
    const file = join(dir, name);
    expect(readFileSync(file, 'utf8')).toBe('To: a@b.c Bcc: x@y.z\nSubject: s\n\nopen https://x/v1/auth/verify?token=cv_1\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(lines[0])).toMatchObject({ file });
    expect(lines.join('\n')).not.toContain('cv_1');
  });
});
