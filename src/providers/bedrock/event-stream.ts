/**
 * The AWS event-stream binary framing (`application/vnd.amazon.eventstream`, as used by ConverseStream):
 *
 *   [total length u32][headers length u32][prelude CRC32 u32][headers][payload][message CRC32 u32]
 *
 * all big-endian; the prelude CRC covers the first 8 bytes, the message CRC every byte before it. A header
 * is [name length u8][name][value type u8][value]; types 0/1 true/false, 2 byte, 3 short, 4 int, 5 long,
 * 6 bytes (u16 length), 7 string (u16 length), 8 timestamp (i64 ms), 9 uuid (16 bytes).
 * The decoder accepts bytes split anywhere and rejects a frame whose CRCs or lengths do not add up.
 */

const PRELUDE = 12;
const TRAILER = 4;
/** 16 MiB payload + 128 KiB headers: the framing's documented maxima. */
const MAX_MESSAGE = 16 * 1024 * 1024 + 128 * 1024 + PRELUDE + TRAILER;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, the zlib polynomial), as the framing uses. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export type HeaderValue = string | boolean | number | bigint | Buffer | Date;

export interface EventMessage {
  headers: Record<string, HeaderValue>;
  payload: Buffer;
}

export class EventStreamError extends Error {
  override readonly name = 'EventStreamError';
}

function encodeHeader(name: string, value: string | boolean | Buffer): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 255) throw new EventStreamError(`header name too long: ${name}`);
  const head = Buffer.concat([Buffer.from([nameBytes.length]), nameBytes]);
  if (typeof value === 'boolean') return Buffer.concat([head, Buffer.from([value ? 0 : 1])]);
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const meta = Buffer.alloc(3);
  meta.writeUInt8(typeof value === 'string' ? 7 : 6, 0);
  meta.writeUInt16BE(bytes.length, 1);
  return Buffer.concat([head, meta, bytes]);
}

/** One framed message (string, boolean and byte-array headers: what event streams carry in practice). */
export function encodeEventMessage(headers: Record<string, string | boolean | Buffer>, payload: Buffer | string): Buffer {
  const headerBytes = Buffer.concat(Object.entries(headers).map(([name, value]) => encodeHeader(name, value)));
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const total = PRELUDE + headerBytes.length + body.length + TRAILER;
  const out = Buffer.alloc(total);
  out.writeUInt32BE(total, 0);
  out.writeUInt32BE(headerBytes.length, 4);
  out.writeUInt32BE(crc32(out.subarray(0, 8)), 8);
  headerBytes.copy(out, PRELUDE);
  body.copy(out, PRELUDE + headerBytes.length);
  out.writeUInt32BE(crc32(out.subarray(0, total - TRAILER)), total - TRAILER);
  return out;
}

function need(bytes: Buffer, at: number, n: number): void {
  if (at + n > bytes.length) throw new EventStreamError('header runs past the header section');
}

function decodeHeaders(bytes: Buffer): Record<string, HeaderValue> {
  const headers: Record<string, HeaderValue> = {};
  let at = 0;
  while (at < bytes.length) {
    const nameLength = bytes.readUInt8(at);
    need(bytes, at + 1, nameLength + 1);
    const name = bytes.toString('utf8', at + 1, at + 1 + nameLength);
    const type = bytes.readUInt8(at + 1 + nameLength);
    at += 2 + nameLength;
    let value: HeaderValue;
    switch (type) {
      case 0:
      case 1:
        value = type === 0;
        break;
      case 2:
        need(bytes, at, 1);
        value = bytes.readInt8(at);
        at += 1;
        break;
      case 3:
        need(bytes, at, 2);
        value = bytes.readInt16BE(at);
        at += 2;
        break;
      case 4:
        need(bytes, at, 4);
        value = bytes.readInt32BE(at);
        at += 4;
        break;
      case 5:
      case 8:
        need(bytes, at, 8);
        value = type === 5 ? bytes.readBigInt64BE(at) : new Date(Number(bytes.readBigInt64BE(at)));
        at += 8;
        break;
      case 6:
      case 7: {
        need(bytes, at, 2);
        const length = bytes.readUInt16BE(at);
        need(bytes, at + 2, length);
        const raw = bytes.subarray(at + 2, at + 2 + length);
        value = type === 7 ? raw.toString('utf8') : Buffer.from(raw);
        at += 2 + length;
        break;
      }
      case 9:
        need(bytes, at, 16);
        value = bytes.toString('hex', at, at + 16);
        at += 16;
        break;
      default:
        throw new EventStreamError(`unknown header value type ${type}`);
    }
    headers[name] = value;
  }
  return headers;
}

/** Per-stream decoder: feed bytes in any split, get whole verified messages. */
export class EventStreamDecoder {
  #buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): EventMessage[] {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    const messages: EventMessage[] = [];
    while (this.#buffer.length >= PRELUDE) {
      const buf = this.#buffer;
      const total = buf.readUInt32BE(0);
      const headersLength = buf.readUInt32BE(4);
      if (crc32(buf.subarray(0, 8)) !== buf.readUInt32BE(8)) throw new EventStreamError('prelude CRC mismatch');
      if (total < PRELUDE + headersLength + TRAILER || total > MAX_MESSAGE) throw new EventStreamError(`bad message length ${total}`);
      if (buf.length < total) break;
      if (crc32(buf.subarray(0, total - TRAILER)) !== buf.readUInt32BE(total - TRAILER)) throw new EventStreamError('message CRC mismatch');
      messages.push({
        headers: decodeHeaders(buf.subarray(PRELUDE, PRELUDE + headersLength)),
        payload: Buffer.from(buf.subarray(PRELUDE + headersLength, total - TRAILER)),
      });
      this.#buffer = buf.subarray(total);
    }
    // Keep only the unfinished tail, not the whole chunk it was cut from.
    if (this.#buffer.length > 0 && this.#buffer.byteOffset > 0) this.#buffer = Buffer.from(this.#buffer);
    return messages;
  }

  /** True when bytes of an unfinished message are left (the stream was cut mid-frame). */
  get pending(): boolean {
    return this.#buffer.length > 0;
  }
}
