import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { open } from 'lmdb';
import * as orderedBinary from 'ordered-binary';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_ENCODER, writeKey } from '../../../src/store/memory/key-encoder.js';

type Key = Parameters<typeof orderedBinary.writeKey>[0];

/**
 * The bytes a writer produces for `key` at `offset` of a buffer of 0xff (lmdb's buffers are Buffers), with the four
 * after its end: lmdb enables ordered-binary's null termination, and the native comparison reads those zeros.
 */
function bytesOf(write: typeof writeKey, key: Key, offset = 3): Buffer {
  const target = Buffer.alloc(1024, 0xff);
  const end = write(key, target, offset);
  return Buffer.from(target.subarray(offset, end + 4));
}

/** ordered-binary as lmdb uses it (importing lmdb enables its null termination). */
const ob = (key: Key, target: Uint8Array, position: number): number => orderedBinary.writeKey(key, target, position);

/** Strings as our keys are made (ids, hashes, model names, days) and every kind the encoder must hand back. */
const str = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', ':', '\u0000', '\u0001', '\u0004', '\u0005', '\u001b', '\u001c', '\u007f', '\u0080', '\u00e9', '\u4e2d', '\ud83d', '\ude00'), maxLength: 70 }),
  fc.uuid(),
);
const scalar = fc.oneof(str, fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
const key: fc.Arbitrary<Key> = fc.oneof(scalar, fc.array(scalar, { minLength: 1, maxLength: 4 }));

describe('the embedded store key encoder', () => {
  it('writes exactly the bytes of ordered-binary (lmdb default) for any key', () => {
    fc.assert(
      fc.property(key, (k) => {
        expect(bytesOf(writeKey, k).equals(bytesOf(ob, k))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('writes the keys the store uses as ordered-binary does, in every string representation', () => {
    const uuid = 'b3c0a5c2-8f59-4a63-9e55-1f0c2b2f6f11';
    const built = ['org-', uuid].join(''); // a flat string
    const cons = `org-${uuid.slice(0, 8)}` + uuid.slice(8); // a concatenation
    const sliced = `xx${uuid}`.slice(2); // a slice
    const decoded = (JSON.parse(`["${uuid}"]`) as string[])[0]!;
    for (const k of [uuid, built, cons, sliced, decoded, 'a'.repeat(63), 'a'.repeat(64), '\u0000x', 'x\u0003y', 'é', '', 'gpt-4o-mini', '2026-12-03']) {
      for (const shaped of [k, [k, uuid], [uuid, 'key', k], [k, 12], [k, -1], [k, Number.MAX_SAFE_INTEGER]] as Key[]) {
        expect(bytesOf(writeKey, shaped).equals(bytesOf(ob, shaped)), JSON.stringify(shaped)).toBe(true);
      }
    }
  });

  it('throws the RangeError lmdb retries with a larger buffer when a key does not fit, as ordered-binary does', () => {
    for (const k of ['abcdefghijklmnopqrstuvwxyz', 'abcdefghij', ['abcdef', 'ghi']] as Key[]) {
      expect(() => ob(k, Buffer.alloc(16), 4)).toThrow(RangeError);
      expect(() => writeKey(k, Buffer.alloc(16), 4)).toThrow(RangeError);
    }
    expect(bytesOf(writeKey, 'abcdefgh', 0).equals(bytesOf(ob, 'abcdefgh', 0))).toBe(true);
  });

  it('reads back what it writes', () => {
    fc.assert(
      fc.property(key, (k) => {
        const bytes = bytesOf(writeKey, k, 0);
        expect(KEY_ENCODER.readKey(bytes, 0, bytes.length)).toEqual(orderedBinary.readKey(bytes, 0, bytes.length));
      }),
      { numRuns: 2000 },
    );
  });

  describe('on disk', () => {
    let dir: string | null = null;
    afterEach(() => {
      if (dir !== null) rmSync(dir, { recursive: true, force: true });
      dir = null;
    });

    it('reads and orders a database written with lmdb default keys, and writes keys that database finds', async () => {
      dir = mkdtempSync(join(tmpdir(), 'svc-keys-'));
      const keys: [string, number][] = [];
      for (let i = 0; i < 300; i++) keys.push([i % 3 === 0 ? 'org-a' : 'org-b\u0001', i]);
      const before = open({ path: dir, encoding: 'msgpack' });
      const db = before.openDB<number, [string, number]>('ledger', { encoding: 'msgpack' });
      await db.transaction(() => {
        for (const k of keys) db.putSync(k, k[1]);
      });
      await before.close();

      const after = open({ path: dir, encoding: 'msgpack', keyEncoder: KEY_ENCODER });
      const withEncoder = { encoding: 'msgpack' as const, keyEncoder: KEY_ENCODER };
      const ours = after.openDB<number, [string, number]>('ledger', withEncoder);
      for (const k of keys) expect(ours.get(k)).toBe(k[1]);
      const range = [...ours.getRange({ start: ['org-a'], end: ['org-a', '\uffff'] })].map((e) => e.value);
      expect(range).toEqual(keys.filter((k) => k[0] === 'org-a').map((k) => k[1]));
      await ours.put(['org-c', 7], 7);
      await after.close();

      const again = open({ path: dir, encoding: 'msgpack' });
      const plain = again.openDB<number, [string, number]>('ledger', { encoding: 'msgpack' });
      expect(plain.get(['org-c', 7])).toBe(7);
      expect([...plain.getKeys()].length).toBe(keys.length + 1);
      await again.close();
    });
  });
});
