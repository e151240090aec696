/**
 * Structured logs through pino: one JSON object per line (`t`, `level`, `msg`, then the fields), written to
 * stdout by an asynchronous SonicBoom destination, so a request's log line is an array push on the hot
 * path and the write(2) happens in batches of at least 32 KiB or every 200 ms. pino flushes the destination
 * synchronously on process exit (a SIGKILL loses at most the last 200 ms).
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

/**
 * Each destination's send of its pending lines, run by one 'exit' listener put ahead of every other (SonicBoom's
 * synchronous flush on exit among them), so the lines of the last FLUSH_MS reach SonicBoom before it flushes.
 */
const exitSenders = new Set<() => void>();
process.prependListener('exit', () => {
  for (const send of exitSenders) send();
});

function destination(json: boolean, out: ((line: string) => void) | undefined): DestinationStream {
  if (out) {
    return { write: (s: string) => out(json ? s.slice(0, -1) : toText(s.slice(0, -1))) };
  }
  // Lines are encoded into one buffer as they come, up to MIN_WRITE bytes, and go to SonicBoom as one write(2) per
  // batch; a timer sends what is left after at most FLUSH_MS, so a quiet gateway's lines are not held back.
  // Encoding at once lets each line's string die in the young generation: held as strings for up to FLUSH_MS (an
  // array of pino's concatenated strings, joined at send), a line outlived two scavenges and was promoted to the
  // old generation (measured with --trace-gc-nvp at a fixed 500 req/s against the build before: promoted bytes
  // per scavenge 509-526 KB -> 357-454 KB, bench/results/cpu.md).
  // SonicBoom's own minLength batching is not used: it appends each line to one growing string and measures that
  // string's byte length per line, which flattens it (measured: ~16 KB allocated and copied per request line).
  // In buffer mode SonicBoom takes Buffers (its type declares strings only).
  const boom = pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }) as unknown as { write(b: Buffer): boolean; flush(): void };
  const pending = Buffer.allocUnsafeSlow(BATCH_BYTES);
  let bytes = 0;
  const send = (): void => {
    if (bytes === 0) return;
    // A copy: SonicBoom holds what it is given until its write completes, and `pending` is refilled at once.
    const chunk = Buffer.from(pending.subarray(0, bytes));
    bytes = 0;
    boom.write(chunk);
  };
  exitSenders.add(send);
  setInterval(send, FLUSH_MS).unref();
  const line = json ? (s: string): string => s : (s: string): string => toText(s.slice(0, -1)) + '\n';
  return {
    write: (s: string) => {
      const l = line(s);
      // UTF-8 takes at most 3 bytes per UTF-16 code unit.
      if (bytes + l.length * 3 > BATCH_BYTES) {
        send();
        if (l.length * 3 > BATCH_BYTES) {
          boom.write(Buffer.from(l, 'utf8'));
          return;
        }
      }
      bytes += pending.write(l, bytes, 'utf8');
      if (bytes >= MIN_WRITE) send();
    },
    flush: () => {
      send();
      boom.flush();
    },
  } as DestinationStream;
}

/** `YYYY-MM-DDTHH:MM:SS.` of the last second a line was stamped in (a Date and toISOString once a second, not per line). */
let stampedSecond = Number.NaN;
let secondPrefix = '';

/** `new Date().toISOString()` for now, built from a per-second prefix and the milliseconds. */
export function isoNow(now = Date.now()): string {
  const ms = now % 1000;
  const second = now - ms;
  if (second !== stampedSecond) {
    stampedSecond = second;
    secondPrefix = new Date(second).toISOString().slice(0, 20);
  }
  return `${secondPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

/**
 * Each write is an fs.write on libuv's thread pool plus its completion on the event loop (tens of microseconds of
 * CPU in all): at a few thousand requests per second, 4 KiB batches cost about 1% of the gateway's CPU; 32 KiB
 * batches an eighth of that. A line waits at most FLUSH_MS either way.
 */
const MIN_WRITE = 32 * 1024;
const FLUSH_MS = 200;
/**
 * The batch buffer. A batch is sent once it holds MIN_WRITE bytes, so a line of up to (BATCH_BYTES - MIN_WRITE) / 3
 * UTF-16 units (3 bytes each at most in UTF-8) always fits; a longer one sends the batch first if it may not fit,
 * and one over BATCH_BYTES / 3 units goes out alone.
 */
const BATCH_BYTES = 2 * MIN_WRITE;

export class Logger {
  readonly #p: Pino;

  /** `out` receives each line without its newline (tests); the default is asynchronous stdout. */
  constructor(level: LogLevel, json: boolean, out?: (line: string) => void) {
    this.#p = pino(
      {
        level,
        base: null,
        messageKey: 'msg',
        timestamp: () => `,"t":"${isoNow()}"`,
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
