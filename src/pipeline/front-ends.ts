import { countMessages, promptTexts, promptTextsUntrusted } from '../canonical/prompt-text.js';
import type { CanonicalRequest } from '../canonical/types.js';
import { validateChat } from '../formats/chat-completions/validate.js';
import type { ClientFormat, FormatName } from '../formats/format.js';
import { planCompletions, wantsStreamUsage } from '../formats/completions/decode.js';
import { completionsEncodeContext } from '../formats/completions/encode.js';
import type { FrontEnd, Prepared } from './front-end.js';
import { invalid } from '../errors/gateway-error.js';
import { spliceBody } from './json-bytes.js';

/**
 * Chat completions: validated without a full decode; the canonical request is decoded only when a
 * candidate is not OpenAI-compatible. The passthrough body is the client's own bytes when nothing changes.
 */
export function chatFrontEnd(format: ClientFormat): FrontEnd {
  return {
    route: '/v1/chat/completions',
    shape: 'chat',
    allowXApiKey: false,
    format,
    prepare(body, raw, controlTouched, modelSpan) {
      const chat = validateChat(body);
      const touched = controlTouched || chat.rewritten;
      const tools = chat.toolsJson;
      let canonical: CanonicalRequest | null = null;
      const injectUsage = chat.stream && !chat.clientWantsStreamUsage;
      return {
        model: chat.model,
        stream: chat.stream,
        maxTokens: chat.maxTokens,
        n: chat.n,
        user: chat.user,
        texts: tools ? [...chat.texts, tools] : chat.texts,
        untrusted: tools ? [...chat.untrusted, false] : chat.untrusted,
        messageCount: chat.messageCount,
        clientWantsStreamUsage: chat.clientWantsStreamUsage,
        logprobs: chat.logprobs,
        canonical: () => (canonical ??= format.decode(body)),
        passthrough: (upstreamModel) => {
          if (!touched && !injectUsage && upstreamModel === chat.model) return raw; // byte fast path
          // Splice the model name (and the usage request) into the client's bytes; re-serialise only when a
          // control field was removed or the body's shape makes a splice unsafe.
          const spliced = touched ? null : spliceBody(raw, upstreamModel, injectUsage, body.stream_options !== undefined, modelSpan);
          if (spliced) return spliced;
          const out: Record<string, unknown> = { ...body, model: upstreamModel };
          // The gateway always asks for usage in the stream (settlement from the upstream's own count).
          if (chat.stream) out.stream_options = { ...(body.stream_options as object | undefined), include_usage: true };
          return JSON.stringify(out);
        },
      };
    },
  };
}

/** Any other format: decoded up front into the canonical model. */
export function canonicalFrontEnd(route: string, shape: FormatName, format: ClientFormat, allowXApiKey = false): FrontEnd {
  return {
    route,
    shape,
    allowXApiKey,
    format,
    prepare: (body) => prepared(format.decode(body)),
  };
}

function prepared(req: CanonicalRequest): Prepared {
  return {
    model: req.model,
    stream: req.stream,
    maxTokens: req.maxTokens,
    n: req.n,
    user: req.user,
    texts: promptTexts(req),
    untrusted: promptTextsUntrusted(req),
    messageCount: countMessages(req),
    clientWantsStreamUsage: false,
    logprobs: req.extensions.openai?.logprobs === true,
    canonical: () => req,
    passthrough: null,
  };
}

/**
 * Legacy completions: one prompt (a string or a one-element array) decoded into the canonical model, with
 * `echo` and `n` carried to the encoder and `stream_options.include_usage` honoured.
 */
export function completionsFrontEnd(format: ClientFormat): FrontEnd {
  return {
    route: '/v1/completions',
    shape: 'completions',
    cacheable: true,
    allowXApiKey: false,
    format,
    prepare(body) {
      const plan = planCompletions(body);
      const req = plan.requests[0];
      if (!req || plan.requests.length > 1) {
        throw invalid('prompt arrays of more than one prompt are not supported; send one request per prompt.', 'prompt');
      }
      // Set on the fresh object, not spread into another: fields added to a spread made a hidden class per request.
      const p = prepared(req);
      p.clientWantsStreamUsage = wantsStreamUsage(body);
      p.encodeContext = (ctx) => completionsEncodeContext(ctx, plan);
      return p;
    },
  };
}
