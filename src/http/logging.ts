import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';
import { redactText, redactUrl, redactValue } from './credentials.js';

/**
 * pino options: credentials redacted wherever they appear in what is logged, by decoded name
 * (query parameters, headers, members of any logged object) and by shape (keys quoted in a message).
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    formatters: {
      log: (obj) => redactValue(obj) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        // The message string: an error's message may quote what the client sent.
        method.apply(this, args.map((a) => (typeof a === 'string' ? redactText(a) : a)) as Parameters<typeof method>);
      },
    },
    serializers: {
      req(req: { method: string; url: string; id: string; ip?: string }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url), ip: req.ip };
      },
    },
  };
}

/**
 * Fastify's per-request logger, made when first used. Fastify makes a child of the server's
 * logger for every request (to bind its id), and a pino child costs more than the rest of a
 * cached answer's hooks together (bench/RESULTS.md), while at the default level nearly every
 * request logs nothing. The child is made by the first call at an enabled level, so what is
 * logged is the same. A route with a level of its own gets its child at once.
 */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  if (opts.level !== undefined || typeof (logger as unknown as Logger).isLevelEnabled !== 'function') return logger.child(bindings, opts);
  return new LazyChild(logger as unknown as Logger, bindings, opts) as unknown as FastifyBaseLogger;
}

/** One object a request, its methods on the prototype: nothing else is made until something is logged. */
class LazyChild {
  private made: Logger | null = null;

  constructor(private readonly parent: Logger, private readonly bindings: Bindings, private readonly opts: ChildLoggerOptions) {}

  get level(): string { return (this.made ?? this.parent).level; }
  set level(level: string) { this.real().level = level; }

  fatal(...args: unknown[]): void { this.write('fatal', args); }
  error(...args: unknown[]): void { this.write('error', args); }
  warn(...args: unknown[]): void { this.write('warn', args); }
  info(...args: unknown[]): void { this.write('info', args); }
  debug(...args: unknown[]): void { this.write('debug', args); }
  trace(...args: unknown[]): void { this.write('trace', args); }
  silent(): void {}

  child(bindings: Bindings, opts?: ChildLoggerOptions): Logger {
    return this.real().child(bindings, opts);
  }

  private real(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.opts));
  }

  private write(level: Level, args: unknown[]): void {
    if (this.made === null && !this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }
}
