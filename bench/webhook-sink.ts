import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One delivery attempt the sink received. */
export interface Receipt {
  /** `webhook-id`: the delivery's id, the same on every attempt. */
  id: string;
  path: string;
  eventId: number | null;
  /** Which server process sent it (the caller moves `epoch` on at each restart). */
  epoch: number;
}

/**
 * A local webhook receiver, as a real one would be: it verifies every request with the
 * standardwebhooks package against its subscription's secret (one path per subscription),
 * answers 200, and keeps each receipt.
 */
export class WebhookSink {
  readonly receipts: Receipt[] = [];
  invalid = 0;
  epoch = 0;
  private readonly verifiers = new Map<string, Webhook>();
  private readonly sockets = new Set<Socket>();
  private readonly server = http.createServer((req, res) => {
    // The server that sent it: a request that began before a restart belongs to the old one.
    const epoch = this.epoch;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
      let eventId: number | null = null;
      try {
        eventId = (this.verifiers.get(path)!.verify(body, headers) as { event_id: number | null }).event_id;
      } catch {
        this.invalid++;
      }
      this.receipts.push({ id: headers['webhook-id'], path, eventId, epoch });
      res.writeHead(200).end();
    });
  });

  async start(): Promise<this> {
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Registers a subscription's secret for the requests that come to `path`. */
  accept(path: string, secret: string): void {
    this.verifiers.set(path, new Webhook(secret));
  }

  distinct(): number {
    return new Set(this.receipts.map((r) => r.id)).size;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}
