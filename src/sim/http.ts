/** node:http plumbing shared by the server and every dialect: body, JSON replies, abortable waits. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';

export const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The whole request body, or null when it exceeds `cap` (the rest is drained, not buffered). */
export async function readBody(req: IncomingMessage, cap = MAX_BODY_BYTES): Promise<Buffer | null> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size <= cap) parts.push(part);
  }
  return size > cap ? null : Buffer.concat(parts);
}

/** Parsed JSON, or undefined when the body is empty or not JSON. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts (client gone, simulator closing). */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

export interface JsonReply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/**
 * Writes a complete JSON response. With `cut`, only the headers and the first half of the body go out
 * before the socket is destroyed (the non-stream form of `midstream-reset`).
 */
export function sendJson(res: ServerResponse, reply: JsonReply, cut = false): void {
  if (res.destroyed || res.headersSent) return;
  const bytes = Buffer.from(JSON.stringify(reply.body));
  res.writeHead(reply.status, {
    ...reply.headers,
    'content-type': 'application/json',
    'content-length': String(bytes.length),
  });
  if (!cut) {
    res.end(bytes);
    return;
  }
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
}
