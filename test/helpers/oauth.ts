import type { App } from '../../src/app.js';

/**
 * An OAuth client registered through the API (with the key in `owner`, whose tier it then acts
 * with; anonymous without one), and an access token it was given by client credentials.
 */
export async function oauthClient(app: App, owner: Record<string, string> = {}): Promise<{ client_id: string; client_secret: string; access_token: string }> {
  const reg = await app.inject({ method: 'POST', url: '/v1/oauth/register', headers: owner, payload: { client_name: 'test', client_type: 'confidential' } });
  if (reg.statusCode !== 201) throw new Error(`registration: ${reg.statusCode} ${reg.body}`);
  const { client_id, client_secret } = reg.json() as { client_id: string; client_secret: string };
  const tok = await app.inject({ method: 'POST', url: '/v1/oauth/token', payload: { grant_type: 'client_credentials', client_id, client_secret } });
  if (tok.statusCode !== 200) throw new Error(`token: ${tok.statusCode} ${tok.body}`);
  return { client_id, client_secret, access_token: (tok.json() as { access_token: string }).access_token };
}
