/**
 * Cheap token bounds on the event loop. An o200k/cl100k token is never shorter than one UTF-8 byte, so the
 * byte count is a strict upper bound; per-message framing adds a few tokens. The hold uses the bound when
 * the balance is far from it and an exact worker-pool count when it is close (src/pipeline/reserve.ts).
 */
export interface PromptSize {
  bytes: number;
  messages: number;
}

const PER_MESSAGE = 4;
const PRIMING = 3;

export function promptSize(texts: readonly string[], messages: number, extraBytes = 0): PromptSize {
  let bytes = extraBytes;
  for (const t of texts) bytes += Buffer.byteLength(t);
  return { bytes, messages };
}

export function upperBoundTokens(s: PromptSize): number {
  return s.bytes + s.messages * PER_MESSAGE + PRIMING;
}

/** A typical-case estimate (about 4 bytes per token) used for TPM admission before actual usage is known. */
export function typicalTokens(s: PromptSize): number {
  return Math.ceil(s.bytes / 4) + s.messages * PER_MESSAGE + PRIMING;
}

export function framingTokens(messages: number): number {
  return messages * PER_MESSAGE + PRIMING;
}
