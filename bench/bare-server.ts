/**
 * The ceiling: bare Fastify, in its own process so it runs where the service runs (the same core
 * when the benchmark pins them). GET /bare answers 1 KB of JSON; PUT /answer keeps a JSON body
 * that POST /answer then answers to every request, serialized each time as the service serializes
 * its own (a batch endpoint's ceiling). PUT /bytes keeps a body that GET /bytes sends as it is,
 * serialized once: the least any server can do for a cached answer of that size (a listing page's
 * ceiling, where the load generator's reading of the answer is the limit). Prints its port on stdout.
 */
import Fastify from 'fastify';

const app = Fastify({ bodyLimit: 16 << 20 });
const kb = { data: 'x'.repeat(1000) };
let answer: unknown = null;
app.get('/bare', async () => kb);
app.put('/answer', async (req) => {
  answer = req.body;
  return { ok: true };
});
app.post('/answer', async () => answer);
let bytes: Buffer = Buffer.alloc(0);
app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: 16 << 20 }, (_req, body, done) => done(null, body));
app.put('/bytes', async (req) => {
  bytes = req.body as Buffer;
  return { ok: true };
});
app.get('/bytes', async (_req, reply) => reply.type('application/json; charset=utf-8').send(bytes));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(typeof address === 'object' && address ? address.port : 0);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
