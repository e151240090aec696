/**
 * One settlement journal line per served request. The entry journaled as a response ends travels with the
 * request (RequestState.journaled), and settlement writes the final entry again only when it bills differently;
 * if that hand-over broke, every request would cost a second JSON line and write(2) and nothing would fail.
 * Settlement flushes once a minute here, so no segment is deleted while the test counts.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startGatewayProcess, stopGatewayProcess } from '../helpers/gateway-process.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const KEY = 'sk-svc-journal-once-key-0123456789abcdefghijklmn';
const tempDir = tempDirs('svc-journal-once-');

describe('settlement journal', () => {
  it('holds one line per served request, stream and non-stream', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ settlement: { batchSize: 100_000, flushMs: 60_000 }, dev: { creditUsd: 100 } }));
    const data = join(dir, 'data');
    const gw = await startGatewayProcess({ SVC_DATA_DIR: data, SVC_CONFIG: config, SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: KEY });
    const ids: string[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const res = await request(`${gw.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `hello ${i}` }], max_tokens: 8, stream: i % 2 === 0 }),
        });
        await res.body.text();
        expect(res.statusCode).toBe(200);
        ids.push(String(res.headers['x-svc-request-id']));
      }
      const lines = readdirSync(data, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.jnl'))
        .flatMap((f) => readFileSync(join(data, f), 'utf8').split('\n').filter(Boolean))
        .map((l) => (JSON.parse(l) as { requestId: string }).requestId);
      expect(lines.sort()).toEqual([...ids].sort());
    } finally {
      await stopGatewayProcess(gw);
    }
  });
});
