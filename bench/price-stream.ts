import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { createParser } from 'eventsource-parser';

/**
 * A `/v2/prices/stream` client that behaves like EventSource: when the stream ends or the server
 * is gone it reconnects with the last id it saw as Last-Event-ID, until stopped. It keeps the id
 * of every `price_change` it got, in arrival order, so a checker can compare them with the log.
 */
export class PriceStream {
  readonly ids: number[] = [];
  /** The position of the first `ready`: the stream owes every matching event after it. */
  startId: number | null = null;
  lastId: string | null = null;
  reconnects = 0;
  resets = 0;
  private req: ClientRequest | null = null;
  private res: IncomingMessage | null = null;
  private stopped = false;
  private onFirstReady: (() => void) | null = null;

  constructor(private readonly base: string, private readonly key: string, private readonly query = '') {}

  /** Resolves at the first `ready`. */
  open(): Promise<void> {
    return new Promise((resolve) => {
      this.onFirstReady = resolve;
      this.connect();
    });
  }

  stop(): void {
    this.stopped = true;
    this.req?.destroy();
    this.res?.destroy();
  }

  private retry(): void {
    if (this.stopped) return;
    this.reconnects++;
    setTimeout(() => this.connect(), 250);
  }

  private connect(): void {
    if (this.stopped) return;
    const parser = createParser({
      onEvent: (m) => {
        if (m.id !== undefined) this.lastId = m.id;
        if (m.event === 'ready' && this.startId === null) {
          this.startId = Number(m.id);
          this.onFirstReady?.();
        } else if (m.event === 'reset') this.resets++;
        else if (m.event === 'price_change') this.ids.push(Number(m.id));
      },
    });
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}`, accept: 'text/event-stream' };
    if (this.lastId !== null) headers['last-event-id'] = this.lastId;
    let retried = false;
    const again = () => {
      if (retried) return;
      retried = true;
      this.retry();
    };
    this.req = request(`${this.base}/v2/prices/stream${this.query}`, { headers }, (res) => {
      this.res = res;
      if (res.statusCode !== 200) {
        res.resume();
        res.on('end', again);
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
      res.on('close', again);
      res.on('error', again);
    });
    this.req.on('error', again);
    this.req.end();
  }
}

/** What a stream got against what it was owed: the log's matching ids after its start, in order. */
export function compareStream(got: number[], owed: number[]): { exact: boolean; missing: number; extra: number } {
  const owedSet = new Set(owed);
  const gotSet = new Set(got);
  const missing = owed.filter((id) => !gotSet.has(id)).length;
  const extra = got.filter((id) => !owedSet.has(id)).length + (got.length - gotSet.size);
  const exact = got.length === owed.length && got.every((id, i) => id === owed[i]);
  return { exact, missing, extra };
}
