/**
 * Structured logs through pino: one JSON object per line (`t`, `level`, `msg`, then the fields), written to
 * stdout by an asynchronous SonicBoom destination, so a request's log line is a string append on the hot
 * path and the write(2) happens in batches. pino flushes the destination synchronously on process exit.
 * With `json` off (a terminal), lines read `LEVEL msg k=v ...`; that form re-reads each JSON line and is
 * meant for development only.
 */
import { pino, type DestinationStream, type Logger as Pino } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Record<string, string | number | boolean | null | undefined>;

type LogValue = string | number | boolean | null;

/** `{"t":...,"level":"info","msg":"request","request_id":...}` -> `INFO request request_id=...`. */
function toText(line: string): string {
  const o = JSON.parse(line) as Record<string, LogValue>;
  let out = `${String(o.level).toUpperCase()} ${String(o.msg)}`;
  for (const k in o) {
    if (k === 't' || k === 'level' || k === 'msg') continue;
    const v = o[k];
    if (v !== null && v !== undefined) out += ` ${k}=${String(v)}`;
  }
  return out;
}

function destination(json: boolean, out: ((line: string) => void) | undefined): DestinationStream {
  if (out) {
    return { write: (s: string) => out(json ? s.slice(0, -1) : toText(s.slice(0, -1))) };
  }
  const boom = pino.destination({ dest: 1, sync: false });
  if (json) return boom;
  return { write: (s: string) => boom.write(toText(s.slice(0, -1)) + '\n') };
}

export class Logger {
  readonly #p: Pino;

  /** `out` receives each line without its newline (tests); the default is asynchronous stdout. */
  constructor(level: LogLevel, json: boolean, out?: (line: string) => void) {
    this.#p = pino(
      {
        level,
        base: null,
        messageKey: 'msg',
        timestamp: () => `,"t":"${new Date().toISOString()}"`,
        formatters: { level: (label) => ({ level: label }) },
      },
      destination(json, out),
    );
  }

  log(level: LogLevel, msg: string, fields: LogFields = {}): void {
    this.#p[level](fields, msg);
  }

  debug(msg: string, f?: LogFields): void {
    if (this.#p.isLevelEnabled('debug')) this.#p.debug(f ?? {}, msg);
  }
  info(msg: string, f?: LogFields): void {
    this.#p.info(f ?? {}, msg);
  }
  warn(msg: string, f?: LogFields): void {
    this.#p.warn(f ?? {}, msg);
  }
  error(msg: string, f?: LogFields): void {
    this.#p.error(f ?? {}, msg);
  }

  /** Writes what is buffered (shutdown paths that exit on their own). */
  flush(): void {
    this.#p.flush();
  }
}
