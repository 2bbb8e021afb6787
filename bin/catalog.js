#!/usr/bin/env node
// The `catalog` command. Runs the compiled CLI; `npm ci` builds it through the prepare script.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist', 'cli', 'main.js');
if (!existsSync(entry)) {
  console.error('catalog: the build is missing; run `npm run build` (npm ci does it for you).');
  process.exit(1);
}

// `import` runs in a child with V8 flags that only a process start takes (see bench/RESULTS.md:
// a larger young generation and GC on the allocating thread). Signals are passed on, and the child
// exits when the parent dies (its IPC channel closes), so a killed import leaves no orphan.
const GC_FLAGS = ['--max-semi-space-size=64', '--single-threaded-gc'];
// A bulk load matches from memory, about 1.5 KB of heap a listing: V8's default limit (about
// 4 GB) would end a 3,000,000-line import, so the child may use half the machine's memory. Near
// the limit the load goes on against the store instead (SqliteIngestWriter's memoryFull).
const heapFlag = () => {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const halfMb = Math.floor(totalmem() / 2 ** 21);
  return given.some((a) => a.startsWith('--max-old-space-size')) || halfMb <= 4096 ? [] : [`--max-old-space-size=${halfMb}`];
};
if (process.argv[2] === 'import' && !process.execArgv.some((a) => a.startsWith('--max-semi-space-size'))) {
  const child = spawn(process.execPath, [...process.execArgv, ...GC_FLAGS, ...heapFlag(), fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...process.env, CATALOG_WATCH_PARENT: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
} else {
  if (process.channel && process.env.CATALOG_WATCH_PARENT === '1') {
    // A child of the above: the channel only watches the parent, it must not keep this process up.
    process.channel.unref();
    process.on('disconnect', () => {
      console.error('catalog: the parent process is gone; stopping');
      process.exit(1);
    });
  }
  await import(entry);
}
