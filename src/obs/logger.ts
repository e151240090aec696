/** Structured logs: one JSON object per line on stdout (or a short text form when json is off). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export class Logger {
  constructor(
    private readonly level: LogLevel,
    private readonly json: boolean,
    private readonly out: (line: string) => void = (l) => process.stdout.write(l + '\n'),
  ) {}

  log(level: LogLevel, msg: string, fields: LogFields = {}): void {
    if (ORDER[level] < ORDER[this.level]) return;
    if (this.json) {
      this.out(JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields }));
    } else {
      const kv = Object.entries(fields)
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(' ');
      this.out(`${level.toUpperCase()} ${msg}${kv ? ' ' + kv : ''}`);
    }
  }

  debug(msg: string, f?: LogFields): void {
    this.log('debug', msg, f);
  }
  info(msg: string, f?: LogFields): void {
    this.log('info', msg, f);
  }
  warn(msg: string, f?: LogFields): void {
    this.log('warn', msg, f);
  }
  error(msg: string, f?: LogFields): void {
    this.log('error', msg, f);
  }
}
