/** OpenAI error bodies -> the contract's catalog; a key in the upstream body never reaches the message. */
import { describe, expect, it } from 'vitest';
import { mapOpenAIError, scrubSecrets } from '../../../../src/providers/openai/errors.js';

const KEY = 'sk-proj-Zx81bQ0aLm3Qw9Rt7Yp2Vn4Kc6Hd8Jf0';
const body = (message: string, type = 'invalid_request_error', code: string | null = null) =>
  JSON.stringify({ error: { message, type, param: null, code } });

const CASES: [number, string, number, string, string | null][] = [
  [400, body(`This model's maximum context length is 128000 tokens. Request by ${KEY}`), 400, 'invalid_request', 'maximum context length'],
  [401, body(`Incorrect API key provided: ${KEY}.`, 'invalid_request_error', 'invalid_api_key'), 503, 'service_unavailable', null],
  [403, body(`Project ${KEY} does not have access to model gpt-5`), 503, 'service_unavailable', null],
  [404, body(`The model \`gpt-9\` does not exist or you do not have access to it. ${KEY}`, 'invalid_request_error', 'model_not_found'), 400, 'invalid_request', 'does not exist'],
  [429, body(`Rate limit reached for gpt-4o in organization org-x on requests per min (RPM). key=${KEY}`, 'requests', 'rate_limit_exceeded'), 429, 'rate_limit_exceeded', 'The provider is rate limiting'],
  [500, body(`The server had an error while processing your request. ${KEY}`, 'server_error'), 503, 'service_unavailable', 'The provider is unavailable'],
  [503, body('The server is overloaded or not ready yet.', 'server_error'), 503, 'service_unavailable', 'The provider is unavailable'],
];

describe('mapOpenAIError', () => {
  for (const [upstream, text, status, code, detail] of CASES) {
    it(`${upstream} -> ${status} ${code}`, () => {
      const err = mapOpenAIError(upstream, text);
      expect(err.status).toBe(status);
      expect(err.code).toBe(code);
      expect(err.headers['x-svc-upstream-status']).toBe(String(upstream));
      expect(err.message).not.toContain(KEY);
      expect(err.message).not.toContain('Zx81bQ0a');
      if (detail) expect(err.message).toContain(detail);
      else expect(err.message).toBe('The provider refused the gateway credentials.');
    });
  }

  it('a rejected request keeps the provider reason without the operator account ids', () => {
    const text = body('Project proj_AbC123xyz in organization org-Zq81Lm does not allow tool_choice; see arn:aws:iam::123456789012:role/x and projects/my-gcp-project/locations/us');
    const err = mapOpenAIError(400, text);
    expect(err.message).toBe('The provider rejected the request: Project [redacted] in organization [redacted] does not allow tool_choice; see [redacted] and [redacted]/locations/us');
  });

  it('a non-JSON body maps by status alone', () => {
    expect(mapOpenAIError(502, '<html>Bad Gateway</html>').message).toBe('The provider is unavailable');
  });
});

describe('scrubSecrets', () => {
  it.each([
    ['OpenAI key', KEY],
    ['Google API key', 'AIzaSyD3-abcdefghijklmnopqrstuvwxyz12345'],
    ['Google OAuth token', 'ya29.a0AfH6SMBx-token.part_two'],
    ['Azure 32-hex key', '0123456789abcdef0123456789abcdef'],
    ['Mistral 32-char key', 'AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
    ['AWS key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature_1'],
  ])('%s is redacted', (_, secret) => {
    const out = scrubSecrets(`failed for ${secret} today`);
    expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
    expect(out).toMatch(/^failed for .* today$/);
  });

  it('ordinary text is left alone', () => {
    const text = 'Rate limit reached for gpt-4o-mini in organization org-abc on tokens per min. Please try again in 20s.';
    expect(scrubSecrets(text)).toBe(text);
  });
});
