import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';

/** Issue 18 item 6: slow clients are timed out, and one address cannot hold every connection. */
let h: Harness;
let port: number;
beforeAll(async () => {
  h = await makeHarness({ REQUEST_TIMEOUT_MS: '800', HEADERS_TIMEOUT_MS: '500', MAX_CONNECTIONS_PER_ADDRESS: '3' });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as { port: number }).port;
});
afterAll(async () => { await h.close(); });

/** A raw connection: what it received, and a promise of its close. */
function open(): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const started = Date.now();
    socket.on('data', (d) => { data += d.toString(); });
    socket.on('error', () => undefined);
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now() - started)));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
  });
}

describe('timeouts', () => {
  it('a body sent too slowly is answered 408 in the envelope and the connection closed', async () => {
    const { key } = await h.key('pro');
    const c = await open();
    c.socket.write(`POST /v1/products/compare HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"product_ids"`);
    const ms = await c.closed;
    expect(ms).toBeLessThan(5000);
    expect(c.received()).toMatch(/^HTTP\/1.1 408/);
    expect(c.received()).toContain('"code":"BAD_REQUEST"');
  });

  it('headers that never finish are cut off', async () => {
    const c = await open();
    c.socket.write('GET /v1/products HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(await c.closed).toBeLessThan(5000);
  });
});

describe('connections per address', () => {
  it('past the cap a new connection is 503 and closed; closing one frees a place', async () => {
    const held = [await open(), await open(), await open()];
    const extra = await open();
    await extra.closed;
    expect(extra.received()).toMatch(/^HTTP\/1.1 503/);
    expect(extra.received()).toContain('SERVICE_UNAVAILABLE');
    held[0].socket.destroy();
    await held[0].closed;
    const again = await open();
    again.socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await again.closed;
    expect(again.received()).toMatch(/^HTTP\/1.1 200/);
    for (const c of held.slice(1)) c.socket.destroy();
  });
});
