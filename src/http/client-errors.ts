import type { Socket } from 'node:net';
import { DOC_URL } from './errors.js';

/**
 * Errors Node's HTTP parser meets before any route is known (headers too large, a malformed request,
 * a request too slow to arrive): the standard envelope, then the connection is closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] = err.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'Request Header Fields Too Large', 'HEADERS_TOO_LARGE', 'the request headers are too large']
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'BAD_REQUEST', 'the request took too long to arrive']
      : [400, 'Bad Request', 'BAD_REQUEST', 'the request is malformed'];
  const body = JSON.stringify({ error: { code, message, doc_url: DOC_URL } });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
    + `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`);
}
