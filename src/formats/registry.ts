import { chatFormat } from './chat-completions/index.js';
import { completionsFormat } from './completions/index.js';
import type { ClientFormat, FormatName } from './format.js';
import { messagesFormat } from './messages/index.js';
import { responsesFormat } from './responses/index.js';

/** Every client format by name, for the pipeline's cross-format path. */
export const FORMATS: Readonly<Record<FormatName, ClientFormat>> = Object.freeze({
  chat: chatFormat,
  completions: completionsFormat,
  responses: responsesFormat,
  messages: messagesFormat,
});
