import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { keepTickShape, tickShapeKept } from '../../src/runtime/tick-shape.js';

describe('keepTickShape: one tick object alive for the life of the process', () => {
  it('keeps a tick object, once, and leaves no hook behind: ticks and promises run as before', async () => {
    keepTickShape();
    expect(tickShapeKept()).toBe(true);
    keepTickShape();
    const order: string[] = [];
    await new Promise<void>((resolve) => {
      process.nextTick(() => order.push('tick'));
      void Promise.resolve().then(() => order.push('promise'));
      setImmediate(() => resolve());
    });
    expect(order.sort()).toEqual(['promise', 'tick']);
  });

  it('in a fresh process, before anything else, it finds one (Node still names them TickObject)', () => {
    const script = `import('${new URL('../../src/runtime/tick-shape.ts', import.meta.url).href}').then((m) => { m.keepTickShape(); console.log(m.tickShapeKept()); })`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('true');
  });
});
