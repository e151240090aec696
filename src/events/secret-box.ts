import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from '../store/contract.js';

const VERSION = 'v1';

/**
 * Envelope encryption for secrets the gateway must read back (webhook signing secrets, channel tokens):
 * AES-256-GCM with a random 96-bit IV per value; tampering or a wrong key fails to open.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox: the key must be 32 bytes');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith(`${VERSION}:`)) throw new Error('SecretBox: unknown envelope');
    const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** `SVC_SECRETS_KEY`: 32 bytes as base64 or hex. */
export function parseSecretsKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('SVC_SECRETS_KEY must be 32 bytes, base64 or hex encoded');
  return key;
}

/** A key file next to (not inside) the embedded store's snapshot, created once with mode 0600. */
export function fileSecretsKey(path: string): Buffer {
  if (existsSync(path)) return parseSecretsKey(readFileSync(path, 'utf8').trim());
  mkdirSync(dirname(path), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(path, key.toString('base64') + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
  return key;
}

interface Sealed {
  sealed: string;
}

const isSealed = (v: unknown): v is Sealed =>
  typeof v === 'object' && v !== null && typeof (v as { sealed?: unknown }).sealed === 'string';

/**
 * The Store as seen by services that keep secrets in kv records: every kv value is sealed on write and
 * opened on read (values written before encryption was enabled are read as they are).
 */
export function sealedKv(store: Store, box: SecretBox): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'kvSet') {
        return <T>(key: string, value: T, ttlMs?: number) => target.kvSet<Sealed>(key, { sealed: box.seal(JSON.stringify(value)) }, ttlMs);
      }
      if (prop === 'kvGet') {
        return async <T>(key: string): Promise<T | null> => {
          const v = await target.kvGet<unknown>(key);
          return (isSealed(v) ? JSON.parse(box.open(v.sealed)) : v) as T | null;
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
