#!/usr/bin/env node
import { loadConfig } from './config/load.js';
import { runAdminCli } from './dashboard/cli-commands.js';
import { secretBoxFor } from './dashboard/secrets-key.js';
import { main } from './main.js';
import { createStore } from './store/index.js';
import { runSimCli } from './sim/cli.js';

/** `svc <command>`: serve (default) | sim. Operator commands call the same code paths as the API. */
async function cli(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case undefined:
    case 'serve':
      await main();
      return;
    case 'sim':
      await runSimCli(rest);
      return;
    case 'admin': {
      // Same service code as the dashboard API. On the embedded store this is safe beside a running gateway:
      // both write through LMDB transactions (multi-process), and the gateway reads keys, balances and records
      // from the database, so a key or credit created here is served at once and kept across restarts.
      const config = loadConfig();
      const store = await createStore(
        config.store.kind === 'redis'
          ? { kind: 'redis', url: config.store.url, commandTimeoutMs: config.store.commandTimeoutMs }
          : { kind: 'memory', snapshotPath: config.store.snapshotPath },
      );
      const code = await runAdminCli(rest, store, (s) => process.stdout.write(s + '\n'), {
        serviceName: config.serviceName,
        secretBox: secretBoxFor(config, process.env).box,
      });
      await store.close();
      return process.exit(code);
    }
    default:
      process.stderr.write(`usage: svc [serve | sim --port N | admin <org|user|key|credits|spend> ...]\nunknown command: ${cmd}\n`);
      process.exit(2);
  }
}

cli(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`svc: ${(e as Error)?.message ?? String(e)}\n`);
  process.exit(1);
});
