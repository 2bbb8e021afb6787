import type { FastifyReply, FastifyRequest } from 'fastify';
import { formDecoded } from '../../http/form-value.js';

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unauthorized_client' | 'unsupported_grant_type' | 'unsupported_response_type' | 'invalid_scope' | 'invalid_client_metadata';

/** RFC 6749 5.2 error body; invalid_client is 401 with a Basic challenge (the scheme we accept besides the body). */
export function oauthError(reply: FastifyReply, error: OAuthErrorCode, description: string) {
  const status = error === 'invalid_client' ? 401 : 400;
  if (status === 401) reply.header('WWW-Authenticate', 'Basic realm="catalog", charset="UTF-8"');
  return reply.status(status).header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send({ error, error_description: description });
}

export type ClientCredentials =
  | { ok: true; clientId: string; clientSecret: string | undefined }
  | { ok: false; error: 'invalid_request' | 'invalid_client'; description: string };

/** client_secret_basic (RFC 6749 2.3.1: both parts form-urlencoded) or client_secret_post; never both. */
export function clientCredentials(req: FastifyRequest, body: { client_id?: string; client_secret?: string } | undefined): ClientCredentials {
  const m = /^Basic\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (m) {
    if (body?.client_secret !== undefined) return { ok: false, error: 'invalid_request', description: 'use one client authentication method, not two' };
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 0) return { ok: false, error: 'invalid_client', description: 'malformed Basic credentials' };
    const part = (s: string) => formDecoded(s) ?? s;
    return { ok: true, clientId: part(decoded.slice(0, i)), clientSecret: part(decoded.slice(i + 1)) };
  }
  if (body?.client_id) return { ok: true, clientId: body.client_id, clientSecret: body.client_secret };
  return { ok: false, error: 'invalid_client', description: 'client authentication is required (HTTP Basic or client_id and client_secret in the body)' };
}

/** application/x-www-form-urlencoded as a flat object (last value wins), as OAuth endpoints take it. */
export function parseForm(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}
