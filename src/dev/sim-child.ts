/**
 * The dev simulator's own process (sim-process.ts forks it): starts the simulator, tells the parent its URL over
 * the IPC channel, and exits when that channel closes, so a gateway that dies, even by SIGKILL, leaves no
 * simulator behind.
 */
import { startSimulator } from '../sim/server.js';

const port = Number(process.env.SVC_SIM_CHILD_PORT ?? 0);
const sim = await startSimulator({ port, host: '127.0.0.1' });
process.on('disconnect', () => void sim.close().then(() => process.exit(0)));
// The gateway stops the simulator by closing the channel; a terminal's Ctrl-C reaches the whole group.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
if (process.send) process.send({ url: sim.url });
else {
  process.stderr.write('svc: sim-child.js is started by the gateway (dev bootstrap), not by hand: use `svc sim`\n');
  process.exit(2);
}
