/**
 * The text of Server-Sent Events (WHATWG HTML, "server-sent events"): one message is `id:`,
 * `event:` and a single `data:` line of JSON, ended by a blank line. JSON.stringify never writes a
 * raw line break, so the data is always one line.
 */
export function sseMessage(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** How long a client waits before it reconnects (EventSource honours it). */
export function sseRetry(ms: number): string {
  return `retry: ${ms}\n\n`;
}
