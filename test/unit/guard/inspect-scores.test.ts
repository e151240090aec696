import { describe, expect, it } from 'vitest';
import { promptTextsUntrusted, promptTexts } from '../../../src/canonical/prompt-text.js';
import type { CanonicalRequest } from '../../../src/canonical/types.js';
import { validateChat } from '../../../src/formats/chat-completions/validate.js';
import { blockedMessage, categoryScores } from '../../../src/pipeline/inspect.js';

const zero = { prompt_injection: 0, hate: 0, 'hate/threatening': 0, 'self-harm': 0, sexual: 0, 'sexual/minors': 0, violence: 0, 'violence/graphic': 0 };

describe('which text is judged for what', () => {
  it('prompt injection counts only untrusted texts; moderation counts every text', () => {
    const results = [
      { ...zero, prompt_injection: 0.99, violence: 0.7 }, // trusted (system prompt)
      { ...zero, prompt_injection: 0.2, hate: 0.1 }, // untrusted (user turn)
    ];
    const s = categoryScores(results, [false, true]);
    expect(s.prompt_injection).toBe(0.2);
    expect(s.violence).toBe(0.7);
    expect(s.hate).toBe(0.1);
    // unknown provenance is judged for everything
    expect(categoryScores(results, []).prompt_injection).toBe(0.99);
  });

  it('chat validation marks user and tool content untrusted, system/developer/assistant and tool-call arguments trusted', () => {
    const chat = validateChat({
      model: 'm',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'developer', content: [{ type: 'text', text: 'dev' }] },
        { role: 'user', content: [{ type: 'text', text: 'u1' }, { type: 'text', text: 'u2' }] },
        { role: 'assistant', content: 'a', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c', content: 'result' },
      ],
    });
    expect(chat.texts).toEqual(['sys', 'dev', 'u1', 'u2', 'a', '{}', 'result']);
    expect(chat.untrusted).toEqual([false, false, true, true, false, false, true]);
  });

  it('canonical requests: system blocks and tool schemas trusted, user text and tool results untrusted', () => {
    const req = {
      model: 'm',
      system: [{ role: 'system', text: 'sys' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'calling' }, { type: 'tool_call', id: 'c', name: 'f', arguments: '{}' }] },
        { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c', content: [{ type: 'text', text: 'page text' }] }] },
      ],
      tools: [{ name: 'f', parameters: {} }],
    } as unknown as CanonicalRequest;
    expect(promptTexts(req)).toEqual(['sys', 'hi', 'calling', '{}', 'page text', '{"name":"f","parameters":{}}']);
    expect(promptTextsUntrusted(req)).toEqual([false, true, false, false, true, false]);
  });

  it('the refusal message names the categories and the operator knobs', () => {
    const m = blockedMessage(['self-harm', 'violence']);
    expect(m).toContain('category self-harm, violence');
    expect(m).toContain('SVC_GUARDRAILS_MODE=monitor');
    expect(m).toContain('guardrails.thresholds');
    expect(m).toContain('"self-harm"');
  });
});
