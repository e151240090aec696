/**
 * Image token estimate, Anthropic's published vision formula: tokens = width * height / 750, after the image
 * is scaled down (aspect ratio kept) so that its long edge is at most 1568 px and it costs at most about 1600
 * tokens (1.2 megapixels). Dimensions come from the header bytes of a base64 PNG, JPEG, GIF or WebP; an image
 * given by URL (not fetched: count_tokens makes no outbound call) or with an unreadable header counts as the
 * 1600-token maximum, an upper bound, which is what a credit hold needs.
 */
import type { ImageSource } from '../../canonical/types.js';

export const MAX_LONG_EDGE = 1568;
export const MAX_IMAGE_TOKENS = 1600;
const PIXELS_PER_TOKEN = 750;
/** Base64 characters decoded to find a header: 256 KiB of image, enough for JPEG EXIF/ICC segments. */
const HEADER_B64_CHARS = Math.ceil((256 * 1024) / 3) * 4;

export interface Dimensions {
  width: number;
  height: number;
}

export function imageTokensFor(d: Dimensions): number {
  const scale = Math.min(1, MAX_LONG_EDGE / Math.max(d.width, d.height));
  const w = Math.max(1, Math.floor(d.width * scale));
  const h = Math.max(1, Math.floor(d.height * scale));
  return Math.min(MAX_IMAGE_TOKENS, Math.ceil((w * h) / PIXELS_PER_TOKEN));
}

export function imageSourceTokens(src: ImageSource): number {
  if (src.kind === 'url') return MAX_IMAGE_TOKENS;
  const d = imageDimensions(Buffer.from(src.data.slice(0, HEADER_B64_CHARS), 'base64'));
  return d === null ? MAX_IMAGE_TOKENS : imageTokensFor(d);
}

/** Width and height from a PNG, JPEG, GIF or WebP header; null when unrecognised or truncated. */
export function imageDimensions(b: Buffer): Dimensions | null {
  const d = png(b) ?? gif(b) ?? webp(b) ?? jpeg(b);
  return d !== null && d.width > 0 && d.height > 0 ? d : null;
}

function png(b: Buffer): Dimensions | null {
  // Signature, then the IHDR chunk: length, "IHDR", width and height as big-endian uint32.
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gif(b: Buffer): Dimensions | null {
  if (b.length < 10 || b.toString('latin1', 0, 4) !== 'GIF8') return null;
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

function webp(b: Buffer): Dimensions | null {
  if (b.length < 30 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  return null;
}

function jpeg(b: Buffer): Dimensions | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      i += 2; // markers without a length
      continue;
    }
    // Start-of-frame markers C0-CF, except DHT (C4), JPG (C8) and DAC (CC), hold height then width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
    }
    i += 2 + b.readUInt16BE(i + 2);
  }
  return null;
}
