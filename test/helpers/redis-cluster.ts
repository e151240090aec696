/**
 * A private three-master Redis Cluster for one test file (no replicas, no persistence), on free ports.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { freePort } from './ports.js';

const run = promisify(execFile);


export interface RedisCluster {
  /** `redis-cluster://127.0.0.1:p1,...` for createStore. */
  url: string;
  nodes: RedisServer[];
  stop(): Promise<void>;
}

export async function startRedisCluster(): Promise<RedisCluster> {
  const nodes: RedisServer[] = [];
  for (let i = 0; i < 3; i++) {
    // The cluster bus defaults to port + 10000, which overflows for high ephemeral ports: pick it explicitly.
    const busPort = await freePort();
    nodes.push(
      await startRedisServer([
        '--cluster-enabled', 'yes',
        '--cluster-config-file', `nodes-${process.pid}-${i}.conf`,
        '--cluster-node-timeout', '2000',
        '--cluster-port', String(busPort),
      ]),
    );
  }
  const addrs = nodes.map((n) => `127.0.0.1:${n.port}`);
  await run('redis-cli', ['--cluster', 'create', ...addrs, '--cluster-replicas', '0', '--cluster-yes']);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const states = await Promise.all(nodes.map((n) => run('redis-cli', ['-p', String(n.port), 'CLUSTER', 'INFO']).then((r) => r.stdout)));
    if (states.every((s) => s.includes('cluster_state:ok'))) break;
    if (Date.now() > deadline) throw new Error('redis cluster did not reach cluster_state:ok');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `redis-cluster://${addrs.join(',')}`,
    nodes,
    async stop() {
      await Promise.all(nodes.map((n) => n.stop()));
    },
  };
}
