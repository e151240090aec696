import type { ClientFormat } from '../format.js';
import { decodeChat } from './decode.js';
import { encodeChatResponse } from './encode.js';
import { ChatStreamEncoder } from './encode-stream.js';

/** POST /v1/chat/completions on the canonical path (cross-format calls; same-format calls pass bytes through). */
export const chatFormat: ClientFormat = {
  name: 'chat',
  decode: decodeChat,
  encodeResponse: encodeChatResponse,
  streamEncoder: (ctx) => new ChatStreamEncoder(ctx),
};
