/**
 * The embedded store's LMDB key encoder: byte for byte ordered-binary's (lmdb's default, so every file written
 * before reads the same and sorts the same), with a faster path for the keys we actually write.
 *
 * ordered-binary encodes a string shorter than 64 characters one `charCodeAt` at a time. Our keys are made of
 * strings of every V8 representation (decoded, concatenated, sliced, internalized), so that property load goes
 * megamorphic: callgrind counted ~480 megamorphic loads per request, ~11% of the gateway's instructions with the
 * encoding itself. Here a string is written by Buffer's native UTF-8 writer and accepted when it is what
 * ordered-binary would have written: as many bytes as characters (ASCII only), no byte at or below 4 (those it
 * escapes) and a first byte of 28 or more (else it prefixes 27). Anything else goes to ordered-binary itself.
 */
import * as orderedBinary from 'ordered-binary';

type Key = Parameters<typeof orderedBinary.writeKey>[0];

/** ordered-binary writes strings of this many characters or more with the native writer already. */
const SHORT_STRING = 0x40;

interface Utf8Target extends Uint8Array {
  utf8Write?: (s: string, offset: number, length: number) => number;
}

function writeString(key: string, target: Utf8Target, position: number): number {
  const n = key.length;
  if (n === 0 || n >= SHORT_STRING || target.utf8Write === undefined) return orderedBinary.writeKey(key, target, position, true);
  const written = target.utf8Write(key, position, target.byteLength - position);
  if (written !== n || target[position]! < 28) return orderedBinary.writeKey(key, target, position, true);
  const end = position + n;
  for (let i = position + 1; i < end; i++) if (target[i]! <= 4) return orderedBinary.writeKey(key, target, position, true);
  return end;
}

/**
 * `orderedBinary.writeKey` as lmdb configures it (lmdb's import enables null termination: a whole key is followed by
 * four zero bytes, not counted in its length, which the native comparison reads), faster for short ASCII strings.
 */
export function writeKey(key: Key, target: Uint8Array, position: number, inSequence?: boolean): number {
  let end: number;
  if (typeof key === 'string') end = writeString(key, target, position);
  else if (Array.isArray(key)) {
    end = position;
    for (let i = 0; i < key.length; i++) {
      if (i > 0) target[end++] = 0;
      end = writeKey(key[i] as Key, target, end, true);
    }
  } else return orderedBinary.writeKey(key, target, position, inSequence);
  if (inSequence === true) return end;
  // Where the zeros would not fit, ordered-binary throws the RangeError lmdb answers with a larger buffer.
  if (end + 4 > target.byteLength) return orderedBinary.writeKey(key, target, position, inSequence);
  target[end] = 0;
  target[end + 1] = 0;
  target[end + 2] = 0;
  target[end + 3] = 0;
  return end;
}

/**
 * lmdb's `keyEncoder` option. `enableNullTermination` is present so lmdb keeps ordered-binary's native key
 * comparison (without it, lmdb would compare a custom encoder's keys as plain bytes); lmdb calls it when a database
 * opens, and it turns on ordered-binary's own termination, which lmdb's import has turned on already.
 */
export const KEY_ENCODER = {
  writeKey,
  readKey: orderedBinary.readKey,
  enableNullTermination: orderedBinary.enableNullTermination,
};
