import { invalid } from '../errors/gateway-error.js';
import { scanJson } from './json-bytes.js';

export type JsonRecord = Record<string, unknown>;

export interface ParsedBody {
  json: JsonRecord;
  /** Span of the top-level "model" value in the raw bytes (found by the same depth-check scan). */
  modelSpan: [number, number] | null;
}

/**
 * Parses a JSON object body: 400 for empty, malformed, non-object or too deeply nested bodies, and for a key
 * repeated in one object (what the gateway inspects and bills must be what it forwards).
 */
export function parseJsonBody(body: Buffer, maxDepth: number): ParsedBody {
  if (body.length === 0) throw invalid('Request body is empty; a JSON object is required.');
  const scan = scanJson(body, maxDepth);
  if (scan.tooDeep) throw invalid(`JSON nesting exceeds the maximum depth of ${maxDepth}.`);
  if (scan.duplicateKey !== null) {
    throw invalid(`The JSON body repeats the key ${JSON.stringify(scan.duplicateKey.slice(0, 100))} in one object; send each key once.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw invalid(`Malformed JSON body: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid('Request body must be a JSON object.');
  }
  return { json: parsed as JsonRecord, modelSpan: scan.modelSpan };
}

export function parseJsonObject(body: Buffer, maxDepth: number): JsonRecord {
  return parseJsonBody(body, maxDepth).json;
}
