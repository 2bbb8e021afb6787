import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { DeliveryTarget } from './webhook-guard.js';
import { withFields } from '../domain/with-fields.js';

/** The most bytes read of a receiver's answer; the rest is not read. */
export const MAX_RESPONSE_BYTES = 4096;
/** The characters of the answer kept with the attempt (shown in the delivery log). */
export const EXCERPT_CHARS = 200;

export interface SendResult {
  statusCode: number | null;
  /** Null for a 2xx answer; else timeout, connection_refused, connection_closed, tls_error, redirect_not_followed, http_status, network_error. */
  error: string | null;
  /** A line for the delivery log (never a stack). */
  detail: string | null;
  excerpt: string | null;
  durationMs: number;
}

function excerptOf(chunks: Buffer[]): string | null {
  if (!chunks.length) return null;
  // Control characters would make the log unreadable (and could forge lines in a terminal).
  const text = Buffer.concat(chunks).toString('utf8').replace(/\p{Cc}+/gu, ' ').trim();
  return text ? text.slice(0, EXCERPT_CHARS) : null;
}

function errorCode(e: NodeJS.ErrnoException): string {
  const code = e.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED' || e.message === 'socket hang up' || code === 'ERR_STREAM_PREMATURE_CLOSE') return 'connection_closed';
  if (code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('SELF_SIGNED') || code.startsWith('UNABLE_TO_') || code === 'EPROTO') return 'tls_error';
  return 'network_error';
}

/**
 * One POST of a signed delivery: to the address the guard checked (the lookup below answers only
 * that address; TLS still verifies the certificate of the url's host name, sent as SNI and Host),
 * within `timeoutMs` from start to the end of the answer, redirects not followed, at most
 * MAX_RESPONSE_BYTES of the answer read. Connections are kept alive between attempts to one host.
 */
export class WebhookSender {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 });
  private readonly open = new Set<http.ClientRequest>();

  constructor(private readonly userAgent: string) {}

  send(target: DeliveryTarget, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> {
    const started = performance.now();
    const { url, address, family } = target;
    const pinned: LookupFunction = (_host, opts, cb) => {
      if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
      else cb(null, address, family);
    };
    const secure = url.protocol === 'https:';
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const chunks: Buffer[] = [];
      let statusCode: number | null = null;
      const finish = (error: string | null, detail: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.open.delete(req);
        resolve({ statusCode, error, detail, excerpt: excerptOf(chunks), durationMs: Math.round(performance.now() - started) });
      };
      const options: https.RequestOptions = {
        method: 'POST', host, port: url.port || (secure ? 443 : 80), path: `${url.pathname}${url.search}`,
        agent: secure ? this.httpsAgent : this.httpAgent, lookup: pinned,
        headers: withFields(headers, {
          'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': this.userAgent, host: url.host,
        }),
        ...(secure ? { servername: /^[\d.]+$|:/.test(host) ? undefined : host } : {}),
      };
      const req = (secure ? https : http).request(options, (res) => {
        statusCode = res.statusCode ?? null;
        let read = 0;
        let capped = false;
        const verdict = (): [string | null, string | null] => {
          if (statusCode !== null && statusCode >= 200 && statusCode < 300) return [null, null];
          if (statusCode !== null && statusCode >= 300 && statusCode < 400) return ['redirect_not_followed', `answered ${statusCode}; redirects are not followed`];
          return ['http_status', `answered ${statusCode}`];
        };
        res.on('data', (chunk: Buffer) => {
          if (capped) return;
          const room = MAX_RESPONSE_BYTES - read;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          read += Math.min(chunk.length, room);
          if (read >= MAX_RESPONSE_BYTES) {
            // Enough read: the status decides; the rest of the answer is not waited for.
            capped = true;
            finish(...verdict());
            res.destroy();
          }
        });
        res.on('end', () => finish(...verdict()));
        res.on('error', () => finish('connection_closed', 'the connection closed before the answer ended'));
        res.on('close', () => {
          if (!res.complete) finish('connection_closed', 'the connection closed before the answer ended');
        });
      });
      this.open.add(req);
      const timer = setTimeout(() => {
        finish('timeout', `no complete answer within ${timeoutMs} ms`);
        req.destroy();
      }, timeoutMs);
      req.on('error', (e: NodeJS.ErrnoException) => finish(errorCode(e), `${e.code ?? 'error'}: ${e.message}`.slice(0, 200)));
      req.end(body);
    });
  }

  /** Aborts what is in flight (its attempts end as connection_closed) and closes kept-alive connections. */
  close(): void {
    for (const req of this.open) req.destroy();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
