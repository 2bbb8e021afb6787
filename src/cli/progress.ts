import cliProgress from 'cli-progress';
import type { IngestSummary } from '../catalog/ingest.js';

/** A progress bar on a terminal (by bytes when the input size is known, else a line counter). */
export function progressReporter(label: string, totalBytes: number | null) {
  const bar = new cliProgress.SingleBar({
    format: totalBytes
      ? `${label} [{bar}] {percentage}% | {lines} lines | {rate} lines/s | rejected {rejected}`
      : `${label} {lines} lines | {rate} lines/s | rejected {rejected}`,
    hideCursor: true,
  }, cliProgress.Presets.shades_classic);
  const started = Date.now();
  bar.start(totalBytes ?? 1, 0, { lines: 0, rate: 0, rejected: 0 });
  return {
    update(s: IngestSummary, bytes?: number) {
      const rate = Math.round(s.lines / Math.max(0.001, (Date.now() - started) / 1000));
      bar.update(totalBytes ? (bytes ?? 0) : 0, { lines: s.lines, rate, rejected: s.rejected });
    },
    stop() {
      bar.stop();
    },
  };
}

/** A progress bar on a terminal for a step of known size (listings matched after a bulk load). */
export function countReporter(label: string, total: number) {
  const bar = new cliProgress.SingleBar({ format: `${label} [{bar}] {percentage}% | {value}/{total} | {rate}/s`, hideCursor: true },
    cliProgress.Presets.shades_classic);
  const started = Date.now();
  bar.start(Math.max(total, 1), 0, { rate: 0 });
  return {
    update(done: number) {
      bar.update(done, { rate: Math.round(done / Math.max(0.001, (Date.now() - started) / 1000)) });
    },
    stop() {
      bar.stop();
    },
  };
}
