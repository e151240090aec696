/**
 * `svc sim [--port 9000] [--host 127.0.0.1]`: runs the provider simulator in the foreground until SIGINT
 * or SIGTERM. The gateway's `src/cli.ts` dispatches the `sim` command here.
 */
import { startSimulator, type Simulator } from './server.js';

const USAGE = `usage: svc sim [--port <n>] [--host <address>]

Runs the provider simulator (OpenAI chat completions ...). Admin API under /_sim/ (health, stats, reset, config).
  --port  listen port, 0 for a free one (default 9000)
  --host  listen address (default 127.0.0.1)`;

export interface SimCliArgs {
  port: number;
  host: string;
  help: boolean;
}

/** Accepts `--port 9000` and `--port=9000`; throws with a one-line reason on anything else. */
export function parseSimArgs(argv: readonly string[]): SimCliArgs {
  const args: SimCliArgs = { port: 9000, host: '127.0.0.1', help: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      args.help = true;
      continue;
    }
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg];
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--port') {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, got '${value}'`);
      args.port = port;
    } else if (flag === '--host') {
      args.host = value;
    } else {
      throw new Error(`unknown option '${arg}'`);
    }
  }
  return args;
}

export async function runSimCli(argv: string[]): Promise<Simulator | null> {
  let args: SimCliArgs;
  try {
    args = parseSimArgs(argv);
  } catch (error) {
    process.stderr.write(`svc sim: ${(error as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return null;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return null;
  }
  const sim = await startSimulator({ port: args.port, host: args.host });
  process.stdout.write(`svc simulator listening on ${sim.url}\n`);
  const stop = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return sim;
}
