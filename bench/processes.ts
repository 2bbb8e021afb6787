import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';

/** A port nothing listens on now (a server left running from another run would answer on a fixed one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A process's peak resident memory, in MB (Linux). */
export function rssPeakMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * A process's CPU time so far, user and system, in µs (Linux, counted in clock ticks, usually 10 ms); NaN once it
 * has exited. Per request it is the server's cost whatever the load generator and the machine's
 * other work do to its throughput.
 */
export function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** A process's resident memory now, in MB (Linux); NaN once it has exited. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
}

/** Waits until `base` answers /health with 200 and its search index is not still building. */
export async function untilReady(base: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(`${base}/health`);
      const h = (await r.json()) as { search_index?: string };
      if (r.status === 200 && h.search_index !== 'building') return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${base} not ready after ${timeoutMs} ms`);
}

/**
 * CPUs to pin the service and the load generator to, apart, so neither takes the other's core;
 * null where the machine has fewer than two or no `taskset`.
 */
export function cpuSplit(): { service: string; load: string } | null {
  const cpus = availableParallelism();
  if (cpus < 2 || spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status !== 0) return null;
  // The service gets the last CPU; the generator (and everything else) the others.
  return { service: String(cpus - 1), load: cpus === 2 ? '0' : `0-${cpus - 2}` };
}

/** Pins this process (and the children it starts later) to `cpus`. */
export function pinSelf(cpus: string): void {
  spawnSync('taskset', ['-a', '-cp', cpus, String(process.pid)], { stdio: 'ignore' });
}

/** `command args` run on `cpus` when given (taskset execs it: the child's pid is the command's). */
export function pinned(cpus: string | undefined, command: string, args: string[]): [string, string[]] {
  return cpus ? ['taskset', ['-c', cpus, command, ...args]] : [command, args];
}
