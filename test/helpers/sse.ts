import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** An SSE client over fetch and eventsource-parser, for tests against a listening app. */
export interface SseClient {
  status: number;
  headers: Headers;
  /** The JSON body of a refused request. */
  body: unknown;
  /** Every message so far, heartbeats and control events included. */
  messages: EventSourceMessage[];
  retry: number | null;
  /** Resolves with the first message (from index `from`) that `pred` accepts; rejects after `ms`. */
  next(pred: (m: EventSourceMessage) => boolean, ms?: number, from?: number): Promise<EventSourceMessage>;
  /** Resolves once `pred` holds of the messages so far; rejects after `ms`. */
  until(pred: (all: EventSourceMessage[]) => boolean, ms?: number): Promise<void>;
  /** Resolves when the server ends the stream (or it is aborted). */
  ended: Promise<void>;
  close(): void;
  /** Messages of the data events (product_update, price_change, stock_change). */
  data(): EventSourceMessage[];
}

export const DATA_EVENTS = new Set(['product_update', 'price_change', 'stock_change']);

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const messages: EventSourceMessage[] = [];
  const waiters = new Set<() => void>();
  let retry: number | null = null;
  let done = false;
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  const client: SseClient = {
    status: res.status, headers: res.headers, body: null, messages, retry: null,
    next(pred, ms = 5000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.slice(from).find(pred);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          } else if (done) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`stream ended without the message; got ${messages.map((m) => m.event).join(',')}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such message within ${ms} ms; got ${messages.map((m) => m.event).join(',')}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    until(pred, ms = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pred(messages)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`condition not met within ${ms} ms; ${messages.length} messages: ${messages.map((m) => m.event).join(',')}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    ended: Promise.resolve(),
    close: () => abort.abort(),
    data: () => messages.filter((m) => DATA_EVENTS.has(m.event ?? '')),
  };
  if (!res.ok || !res.body) {
    client.body = await res.json().catch(() => null);
    return client;
  }
  const parser = createParser({
    onEvent: (m) => {
      messages.push(m);
      notify();
    },
    onRetry: (ms) => {
      retry = ms;
      client.retry = retry;
    },
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  client.ended = (async () => {
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // aborted or cut
    } finally {
      done = true;
      notify();
    }
  })();
  return client;
}
