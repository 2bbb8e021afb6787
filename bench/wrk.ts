/**
 * wrk (Debian's package `wrk`) as the benchmark's load generator. It is written in C, so one core
 * of it keeps the service's core busy even with 26 KB answers, where autocannon's own reading of
 * them was the limit. The requests are written to a file that bench/wrk.lua sends in order,
 * starting again from the top when it reaches the end.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface WrkRequest { method: 'GET' | 'POST'; path: string; body?: string }
export interface LoadRun {
  requests: number; rps: number; p50: number; p99: number; errors: number;
  /** Bytes read a request answered, status line and headers included: what the server wrote for each. */
  bytesPerAnswer: number;
}

/** wrk's version line, or null where it is not installed. */
export function wrkVersion(): string | null {
  const r = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if (r.error) return null;
  return /wrk \S+/.exec(r.stdout)?.[0] ?? 'wrk';
}

const script = join(import.meta.dirname, 'wrk.lua');

/** One load of `url` for `seconds`: one wrk thread (it runs where this process is pinned). */
export async function wrk(url: string, connections: number, seconds: number, headers: Record<string, string>,
  requests: Iterable<WrkRequest>): Promise<LoadRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const requestFile = join(dir, 'requests');
    const headerFile = join(dir, 'headers');
    // JSON bodies and encoded paths hold no tab or newline, so one line per request is unambiguous.
    const lines: string[] = [];
    for (const r of requests) lines.push(`${r.method}\t${r.path}\t${r.body ?? ''}\n`);
    writeFileSync(requestFile, lines.join(''));
    writeFileSync(headerFile, Object.entries(headers).map(([k, v]) => `${k}: ${v}\n`).join(''));
    const { stdout } = await promisify(execFile)('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s',
      '-s', script, url, '--', requestFile, headerFile], { maxBuffer: 1 << 20 });
    const r = JSON.parse(stdout.trim().split('\n').pop()!) as {
      requests: number; duration_us: number; p50_us: number; p99_us: number; errors: number; non2xx: number; bytes: number;
    };
    const ms = (us: number) => Math.round(us / 10) / 100;
    return {
      requests: r.requests, rps: Math.round((r.requests * 1e6) / r.duration_us), p50: ms(r.p50_us), p99: ms(r.p99_us),
      errors: r.errors + r.non2xx, bytesPerAnswer: Math.round(r.bytes / Math.max(1, r.requests)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
