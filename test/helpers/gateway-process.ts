/**
 * The real gateway (`dist/src/main.js`, so `make build` first) as a child process: for crash tests (SIGKILL),
 * restarts on one data directory, and the operator CLI beside a running gateway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'undici';
import { projectRoot } from '../../src/pool/pool.js';
import { freePort } from './ports.js';


export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited: Promise<number | string>;
}

/** Starts main.js with `env` on top of the inherited environment; resolves once /healthz answers 200. */
export async function startGatewayProcess(
  env: Record<string, string>,
  opts: { waitHealthy?: boolean; /** Node or V8 flags before main.js (ones NODE_OPTIONS refuses, like --log-maps). */ nodeArgs?: string[] } = {},
): Promise<GatewayProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), join(projectRoot(), 'dist/src/main.js')], {
    env: {
      ...process.env,
      SVC_PORT: String(port),
      SVC_DASHBOARD_PORT: String(await freePort()),
      SVC_HOST: '127.0.0.1',
      SVC_GUARDRAILS_MODE: 'off',
      SVC_LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = `http://127.0.0.1:${port}`;
  const proc = { url, child, stderr: () => stderr, exited };
  if (opts.waitHealthy === false) return proc;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`gateway process exited (${child.exitCode}):\n${stderr}`);
    try {
      if ((await request(`${url}/healthz`)).statusCode === 200) return proc;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`gateway process did not become healthy:\n${stderr}`);
}

/** SIGTERM (graceful: settlement flushed, store closed) and wait for the exit. */
export async function stopGatewayProcess(p: GatewayProcess): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await p.exited;
}
