import { createHook } from 'node:async_hooks';

let kept: object | null = null;

/**
 * Keeps one of `process.nextTick`'s tick objects alive for the life of the process. Node builds
 * each as an object literal with computed symbol keys, which V8 builds fast while the literal's
 * feedback holds one map, held weakly. A full GC at a moment with no tick object alive (a long
 * start, such as the search index's build) frees that map, the literal's feedback turns
 * megamorphic for good, and every nextTick (about nine a request in Node's HTTP and stream code)
 * goes through V8's runtime: 2-9 µs a request more here (bench/RESULTS.md). Call it before the
 * heap grows; a later call cannot undo a feedback already megamorphic.
 */
export function keepTickShape(): void {
  if (kept !== null) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept ??= resource;
    },
  });
  hook.enable();
  process.nextTick(() => undefined);
  hook.disable();
}

/** Whether a tick object is kept (tests read it). */
export const tickShapeKept = (): boolean => kept !== null;
