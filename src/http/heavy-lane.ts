import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Milliseconds of work in one go (a batch of up to 100 listings): started one per event-loop turn (http/heavy-lane.ts). */
    heavy?: boolean;
  }
}

/**
 * Requests that hold the thread for milliseconds (the batch endpoints) start one per turn of the
 * event loop, in arrival order, once authenticated, counted and missed by the response cache.
 * Run back to back, the batches that arrived together kept the loop from reading any other socket
 * until the last was done; between two of them the loop now polls its sockets, so another client
 * waits for one batch at most (bench/RESULTS.md, "Batches take turns").
 */
export class HeavyLane {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;
  private skips = 0;

  /** Requests not run because their client had gone when their turn came. */
  get skipped(): number {
    return this.skips;
  }

  /**
   * Resolves when it is this request's turn: true to run it, false when `gone()` says at that
   * moment that its client has left (counted in `skipped`).
   */
  turn(gone: () => boolean = () => false): Promise<boolean> {
    return new Promise<boolean>((start) => {
      this.waiting.push(() => {
        const run = !gone();
        if (!run) this.skips++;
        start(run);
      });
      if (!this.scheduled) this.schedule();
    });
  }

  /** How many requests wait for their turn (tests). */
  get queued(): number {
    return this.waiting.length;
  }

  private schedule(): void {
    this.scheduled = true;
    // setImmediate: the next one starts after the loop has polled its sockets again.
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      if (this.waiting.length) this.schedule();
    });
  }
}

/**
 * Routes with `config.heavy` wait for their turn in the lane, after every check that can answer
 * them sooner. A callback hook: every other request goes on at once, with no promise made for it.
 * A request whose connection has closed while it waited is not run: no one can read the answer,
 * and under overload, clients that time out and retry would otherwise fill the lane with work
 * for no one. It has claimed nothing yet (the idempotency claim is made after the lane).
 */
export function installHeavyLane(app: FastifyInstance, lane = new HeavyLane()): HeavyLane {
  app.addHook('preHandler', (req, reply, done) => {
    if (!req.routeOptions.config.heavy) return done();
    void lane.turn(() => req.raw.socket?.destroyed === true).then((run) => {
      if (run) return done();
      req.log.info('client gone before its turn: not run');
      reply.hijack();
    });
  });
  return lane;
}
