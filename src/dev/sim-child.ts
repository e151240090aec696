/**
 * The dev simulator's own process (sim-process.ts forks it): starts the simulator, tells the parent its URL over
 * the IPC channel, and exits when that channel closes, so a gateway that dies, even by SIGKILL, leaves no
 * simulator behind.
 */
import { startSimulator } from '../sim/server.js';

if (!process.send) {
  process.stderr.write('svc: sim-child.js is started by the gateway (dev bootstrap), not by hand: use `svc sim`\n');
  process.exit(2);
}
const sim = await startSimulator({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
const stop = (): void => void sim.close().then(() => process.exit(0));
process.on('disconnect', stop);
process.on('SIGTERM', stop);
// The gateway stops the simulator by closing the channel; a terminal's Ctrl-C reaches the whole group, and the
// gateway still drains its requests after it.
process.on('SIGINT', () => {});
// The gateway may have gone while the simulator started (it failed to start): no one to tell, nothing to serve.
if (!process.connected) stop();
else process.send({ url: sim.url }, (err: Error | null) => err && stop());
