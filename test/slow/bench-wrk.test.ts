import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrk, wrkVersion, type WrkRequest } from '../../bench/wrk.js';

/**
 * The benchmark's load generator (bench/wrk.ts with bench/wrk.lua) against a server that records
 * what arrives: the requests as written, with their headers and bodies, sent round, and counted
 * as wrk reports them. The cold rows rely on this: a request list is sent in order, never skipped.
 * CI installs wrk; elsewhere this suite is skipped without it.
 */
describe.skipIf(!wrkVersion())('bench/wrk.ts', () => {
  const seen: Array<{ method: string; url: string; auth?: string; type?: string; body: string }> = [];
  // What the server wrote for each answer (its headers' length does not vary), by the socket's count.
  const written = new Map<Socket, number>();
  const answerBytes = new Set<number>();
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, type: req.headers['content-type'], body });
        const before = written.get(req.socket) ?? 0;
        res.on('finish', () => {
          answerBytes.add(req.socket.bytesWritten - before);
          written.set(req.socket, req.socket.bytesWritten);
        });
        res.writeHead(req.url === '/fail' ? 500 : 200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the written requests in order, round, with their headers and bodies', async () => {
    const requests: WrkRequest[] = [
      { method: 'GET', path: `/v1/products?q=${encodeURIComponent('พร้อมส่ง hàng')}&limit=20` },
      { method: 'POST', path: '/mcp', body: JSON.stringify({ query: 'tab\there "quoted"', ids: [1, 2] }) },
      { method: 'GET', path: '/v1/products/42' },
    ];
    seen.length = 0;
    const run = await wrk(url, 1, 1, { authorization: 'Bearer k1', 'content-type': 'application/json' }, requests);
    expect(run.errors).toBe(0);
    expect(run.requests).toBeGreaterThan(30);
    expect(run.p99).toBeGreaterThanOrEqual(run.p50);
    // Every answer has the same length: the bytes wrk read, over the answers it counted.
    expect([...answerBytes]).toHaveLength(1);
    expect(run.bytesPerAnswer).toBe([...answerBytes][0]);
    // One connection: what arrives is the list, in order, from the top again at its end; the
    // last request may have arrived after wrk stopped counting. wrk takes the first request
    // before the run and never sends it (bench/wrk.lua), so the second arrives first.
    expect(seen.length - run.requests).toBeGreaterThanOrEqual(0);
    expect(seen.length - run.requests).toBeLessThanOrEqual(1);
    seen.forEach((s, k) => {
      const sent = requests[(k + 1) % requests.length];
      expect({ method: s.method, url: s.url, body: s.body }).toEqual({ method: sent.method, url: sent.path, body: sent.body ?? '' });
      expect(s.auth).toBe('Bearer k1');
      expect(s.type).toBe('application/json');
    });
  });

  it('counts answers outside 2xx and 3xx as errors', async () => {
    const run = await wrk(url, 2, 1, {}, [{ method: 'GET', path: '/fail' }]);
    expect(run.requests).toBeGreaterThan(0);
    expect(run.errors).toBe(run.requests);
  });
});
