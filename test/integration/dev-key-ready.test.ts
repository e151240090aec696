/**
 * The dev bootstrap's key works from the gateway's first answer. It used to be seeded after the listener opened,
 * so a client started together with `make run` (or a test's first request after /healthz) could reach the
 * gateway before the key existed and be refused with 401: the first request right after the port opened was, in
 * six starts out of six.
 */
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startGatewayProcess, stopGatewayProcess } from '../helpers/gateway-process.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const KEY = 'sk-svc-ready-test-key-0123456789abcdefghijklmnopq';
const tempDir = tempDirs('svc-ready-');

describe('dev bootstrap', () => {
  it('the first request that reaches the listener is served with the dev key', { timeout: 60_000 }, async () => {
    for (let start = 0; start < 3; start++) {
      const dir = tempDir();
      const gw = await startGatewayProcess({ SVC_DATA_DIR: join(dir, 'data'), SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: KEY }, { waitHealthy: false });
      try {
        let status = 0;
        for (let i = 0; i < 3000 && status === 0; i++) {
          try {
            const res = await request(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
            await res.body.text();
            status = res.statusCode;
          } catch {
            if (gw.child.exitCode !== null) throw new Error(`gateway exited:\n${gw.stderr()}`);
            await new Promise((r) => setTimeout(r, 5)); // not listening yet
          }
        }
        expect(status).toBe(200);
      } finally {
        await stopGatewayProcess(gw);
      }
    }
  });
});
