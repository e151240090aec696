#!/usr/bin/env node
import { main } from './main.js';
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
    default:
      process.stderr.write(`usage: svc [serve|sim --port N]\nunknown command: ${cmd}\n`);
      process.exit(2);
  }
}

cli(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`svc: ${(e as Error)?.message ?? String(e)}\n`);
  process.exit(1);
});
