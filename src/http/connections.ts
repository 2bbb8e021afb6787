import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a client may take, and how many connections one address may hold (docs/api.md, Limits). */
export interface ConnectionLimits {
  /** The whole request, body included, must arrive within this (408 after). */
  requestTimeoutMs: number;
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** A connection with no bytes either way for this long is closed (a stream's heartbeat keeps it open). */
  idleTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections from one address; past it a new one is answered 503 and closed. 0: no cap. */
  maxPerAddress: number;
}

/** The options Node's HTTP server takes at creation for these limits (Fastify passes `http` through). */
export function serverTimeouts(l: ConnectionLimits) {
  return {
    requestTimeout: l.requestTimeoutMs,
    connectionTimeout: l.idleTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(l.headersTimeoutMs, l.requestTimeoutMs),
      // Node checks the two timeouts above on this interval (30 s by default, too coarse for short limits).
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(Math.min(l.headersTimeoutMs, l.requestTimeoutMs) / 4))),
    },
  };
}

const BUSY = JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'too many connections from this address; close some and retry' } });

/** Caps open connections per remote address: one client cannot hold every socket the process has. */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const n = (open.get(address) ?? 0) + 1;
    if (n > max) {
      socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(BUSY)}\r\n`
        + `Retry-After: 5\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${BUSY}`);
      socket.destroySoon();
      return;
    }
    open.set(address, n);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
