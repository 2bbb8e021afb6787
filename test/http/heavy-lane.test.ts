import { once } from 'node:events';
import { connect } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { HeavyLane } from '../../src/http/heavy-lane.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { until } from '../helpers/until.js';

describe('HeavyLane', () => {
  it('starts the waiting requests one per event-loop turn, in arrival order', async () => {
    const lane = new HeavyLane();
    const started: number[] = [];
    for (const n of [1, 2, 3]) void lane.turn().then(() => started.push(n));
    expect(started).toEqual([]);
    expect(lane.queued).toBe(3);
    await nextTurn();
    expect(started).toEqual([1]);
    await nextTurn();
    expect(started).toEqual([1, 2]);
    await nextTurn();
    expect(started).toEqual([1, 2, 3]);
    expect(lane.queued).toBe(0);
  });
});

describe('batch requests beside a detail request, over sockets', () => {
  let h: Harness;
  let base: string;
  let headers: { authorization: string };
  beforeAll(async () => {
    h = await makeHarness();
    const lines = [...generateDemoRecords({ listings: 400, seed: 3, historyDays: 30, now: h.clock.now() })];
    await h.ingest(lines);
    headers = (await h.key('enterprise')).headers;
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }, 60_000);
  afterAll(async () => h.close());

  /** An open connection; `send` writes a request and resolves with the status once the whole answer has arrived. */
  async function connection() {
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    await once(socket, 'connect');
    return {
      send(head: string, body = ''): Promise<number> {
        let got = Buffer.alloc(0);
        const answered = new Promise<number>((resolve) => {
          socket.on('data', (chunk: Buffer) => {
            got = Buffer.concat([got, chunk]);
            const end = got.indexOf('\r\n\r\n');
            const length = Number(/content-length: (\d+)/i.exec(got.subarray(0, end).toString())?.[1]);
            if (end >= 0 && got.length >= end + 4 + length) resolve(Number(got.subarray(9, 12).toString()));
          });
        });
        socket.write(`${head}\r\nHost: 127.0.0.1\r\nAuthorization: ${headers.authorization}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        return answered;
      },
      close: () => socket.destroy(),
      /** Closes this side once what was written has gone out. */
      end: () => socket.end(),
    };
  }

  it('a detail sent after eight batches is answered before them: they start one per turn', async () => {
    const sockets = await Promise.all(Array.from({ length: 9 }, () => connection()));
    // The server has accepted all nine before any request is written.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const done: string[] = [];
    // All nine written in one go: the server finds them ready together.
    const batches = sockets.slice(0, 8).map((s, n) => s.send('POST /v2/agents/batch-lookup HTTP/1.1\r\nContent-Type: application/json',
      JSON.stringify({ product_ids: Array.from({ length: 100 }, (_, k) => 1 + ((n * 37 + k) % 400)), include_price_history: true }))
      .then((status) => done.push(`batch ${n} ${status}`)));
    const detail = sockets[8].send('GET /v1/products/5 HTTP/1.1').then((status) => done.push(`detail ${status}`));
    await Promise.all([...batches, detail]);
    for (const s of sockets) s.close();
    expect(done).toHaveLength(9);
    expect(done.every((d) => d.endsWith(' 200'))).toBe(true);
    // Without the lane the server ran the eight batches back to back before reading the detail.
    expect(done[0]).toBe('detail 200');
  }, 30_000);

  it('a batch whose client has gone before its turn is not run; the others are answered', async () => {
    const lane = h.app.heavyLane;
    const before = lane.skipped;
    const batch = (n: number) => ['POST /v2/agents/batch-lookup HTTP/1.1\r\nContent-Type: application/json',
      JSON.stringify({ product_ids: Array.from({ length: 100 }, (_, k) => 1 + ((n * 37 + k) % 400)) })] as const;
    const live = await connection();
    const gone = await Promise.all(Array.from({ length: 3 }, () => connection()));
    const answered = live.send(...batch(0));
    // Each whole request is written, then the connection is ended at once: the server reads the
    // request and then the end of the connection, before the batch ahead of them is done.
    for (const [n, s] of gone.entries()) {
      void s.send(...batch(n + 1));
      s.end();
    }
    expect(await answered).toBe(200);
    expect(await until(() => lane.skipped - before === 3, 10_000)).toBe(true);
    expect(lane.queued).toBe(0);
    // The lane goes on: a later batch on a live connection is answered.
    expect(await live.send(...batch(4))).toBe(200);
    expect(lane.skipped - before).toBe(3);
    live.close();
  }, 30_000);
});
