/**
 * Start-up refusals of the front end: one line each, saying what is wrong and what to do. main() prints
 * the message (no stack trace) and exits 1.
 */
import { createServer } from 'node:net';

export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * uWS binds with SO_REUSEPORT, so a second gateway on a busy port would bind as well and the kernel would
 * split connections between the two. A plain Node listener does not set SO_REUSEPORT: if it cannot bind,
 * something already listens there. Port 0 (a free port picked by the kernel) is never busy.
 */
export async function assertPortFree(host: string, port: number, what: string, hint: string): Promise<void> {
  if (port === 0) return;
  const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => resolve(e));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(null)));
  });
  if (!error) return;
  if (error.code === 'EADDRINUSE') {
    throw new StartupError(
      `${what} port ${host}:${port} is already in use (another gateway?); refusing to start, since a second listener ` +
        `would silently take part of its traffic. Stop the other process or choose a free port (${hint}); ` +
        `to run several gateway processes on one port, start one gateway with SVC_PROCESSES=N on the Redis store.`,
    );
  }
  throw new StartupError(`cannot listen on ${host}:${port} for the ${what} (${error.code ?? error.message}); choose another address (${hint}).`);
}
