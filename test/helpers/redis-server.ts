/**
 * A private redis-server for one test file: free port, temp dir, no persistence. Tests never touch a shared
 * instance. `restart()` kills the process and starts a new one on the same port (Redis-down tests).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGKILL, so no shutdown work is done) and starts a fresh one on the same port. */
  restart(): Promise<void>;
  /** Kills the server without restarting it. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedisServer(extraArgs: string[] = []): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  let proc: ChildProcess | null = await launch([...args, ...extraArgs], port);
  // A crashed test run must not leave servers behind.
  const onExit = (): void => void proc?.kill('SIGKILL');
  process.once('exit', onExit);

  const kill = async (): Promise<void> => {
    const p = proc;
    proc = null;
    if (p === null || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
    p.kill('SIGKILL');
    await exited;
  };

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    async restart() {
      await kill();
      proc = await launch([...args, ...extraArgs], port);
    },
    async stop() {
      process.off('exit', onExit);
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function launch(args: string[], port: number): Promise<ChildProcess> {
  // redis-server reports start-up errors on stdout: keep both streams for the failure message.
  const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const keep = (chunk: Buffer): void => {
    if (stderr.length < 4000) stderr += chunk.toString();
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`redis-server exited (${proc.exitCode}): ${stderr}`);
    if (await answersPing(port)) return proc;
    await new Promise((r) => setTimeout(r, 25));
  }
  proc.kill('SIGKILL');
  throw new Error(`redis-server on port ${port} did not answer PING within 5 s: ${stderr}`);
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    let buf = '';
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.on('error', () => done(false));
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => {
      buf += d.toString();
      if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
    });
  });
}

