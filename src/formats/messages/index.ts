import type { ClientFormat } from '../format.js';
import { decodeMessagesRequest } from './decode.js';
import { encodeMessagesResponse } from './encode.js';
import { MessagesStreamEncoder } from './encode-stream.js';

/** POST /v1/messages on the canonical path. */
export const messagesFormat: ClientFormat = {
  name: 'messages',
  decode: decodeMessagesRequest,
  encodeResponse: encodeMessagesResponse,
  streamEncoder: (ctx) => new MessagesStreamEncoder(ctx),
};
