import type { HttpResponse } from 'uWebSockets.js';

/**
 * Reads a request body with a hard cap. uWS reuses the chunk ArrayBuffer after each callback, so every
 * chunk is copied. Calls `tooLarge` as soon as the cap is crossed and ignores the rest.
 */
export function readBody(
  res: HttpResponse,
  cap: number,
  done: (body: Buffer) => void,
  tooLarge: () => void,
): void {
  const parts: Buffer[] = [];
  let size = 0;
  let over = false;
  res.onData((chunk, isLast) => {
    if (over) return;
    size += chunk.byteLength;
    if (size > cap) {
      over = true;
      tooLarge();
      return;
    }
    if (chunk.byteLength > 0) parts.push(Buffer.from(chunk.slice(0)));
    if (isLast) done(parts.length === 1 ? parts[0]! : Buffer.concat(parts, size));
  });
}
