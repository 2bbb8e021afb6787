/**
 * The ceiling: bare Fastify, in its own process so it runs where the service runs (the same core
 * when the benchmark pins them). GET /bare answers 1 KB of JSON; PUT /answer keeps a JSON body
 * that POST /answer then answers to every request, serialized each time as the service serializes
 * its own (a batch endpoint's ceiling). Prints its port on stdout.
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
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(typeof address === 'object' && address ? address.port : 0);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
