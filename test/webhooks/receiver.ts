import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

export type Answer = (r: Received, res: http.ServerResponse, req: http.IncomingMessage) => void;

/**
 * A real HTTP receiver on 127.0.0.1 (the only kind of address tests send to): it records every
 * request and answers with `answer`, which a test swaps as it goes.
 */
export class Receiver {
  readonly received: Received[] = [];
  answer: Answer = (_r, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' };
      this.received.push(r);
      this.answer(r, res, req);
    });
  });
  private readonly sockets = new Set<import('node:net').Socket>();

  async start(): Promise<this> {
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The payloads received, parsed. */
  payloads(): Array<{ event: string; event_id: number | null; timestamp: string; data: Record<string, unknown> }> {
    return this.received.map((r) => JSON.parse(r.body));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}

/** Verifies a received request with the standardwebhooks package, as a receiver would; throws when it does not verify. */
export function verify(secret: string, r: Received): unknown {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
}
