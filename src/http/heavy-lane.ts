import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Milliseconds of work in one go (a batch of up to 100 listings): started one per event-loop turn (http/heavy-lane.ts). */
    heavy?: boolean;
  }
}

/**
 * Requests that hold the thread for milliseconds (the batch endpoints, about 7 ms for 100 ids on
 * SQLite) start one per turn of the event loop, in arrival order, once authenticated, counted and
 * missed by the response cache. Without it, every batch that arrived together ran back to back
 * in one turn, before the loop read another socket: with one client's 32 connections of batches,
 * every other client's request waited 0.4-1 s (bench/RESULTS.md). Between two of them the loop
 * now reads its sockets, so other requests wait for one batch at most. A batch's own wait is the
 * same: it still queues behind the batches before it.
 */
export class HeavyLane {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  /** Resolves when it is this request's turn. */
  turn(): Promise<void> {
    return new Promise<void>((start) => {
      this.waiting.push(start);
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

/** Routes with `config.heavy` wait for their turn in the lane, after every check that can answer them sooner. */
export function installHeavyLane(app: FastifyInstance, lane = new HeavyLane()): HeavyLane {
  app.addHook('preHandler', async (req) => {
    if (req.routeOptions.config.heavy) await lane.turn();
  });
  return lane;
}
