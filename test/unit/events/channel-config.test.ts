import { describe, expect, it } from 'vitest';
import {
  REDACTED,
  redactChannelConfig,
  restoreRedacted,
  validateChannelConfig,
  type ChannelType,
} from '../../../src/events/channel-config.js';

const SLACK = 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX';
const JIRA = { base_url: 'https://acme.atlassian.net', email: 'ops@acme.com', api_token: 'atl-token-1', project_key: 'OPS' };

/** [type, config, expected]: `true` valid, otherwise [param, reason substring]. */
const CASES: ReadonlyArray<readonly [ChannelType, unknown, true | readonly [string, string]]> = [
  ['webhook', { url: 'https://hooks.example.com/n' }, true],
  ['webhook', { url: 'https://hooks.example.com/n', secret: 'eight888' }, true],
  ['webhook', { url: 'https://hooks.example.com/n', secret: 'short' }, ['config.secret', '8 to 128']],
  ['webhook', { url: 'https://hooks.example.com/n', secret: 'x'.repeat(129) }, ['config.secret', '8 to 128']],
  ['webhook', { url: 'https://hooks.example.com/n', secret: REDACTED }, ['config.secret', 'redaction mask']],
  ['webhook', {}, ['config.url', 'required']],
  ['webhook', { url: 'http://hooks.example.com/n' }, ['config.url', 'https']],
  ['webhook', { url: 'https://10.0.0.1/n' }, ['config.url', 'non-public']],
  ['webhook', { url: 'https://169.254.169.254/' }, ['config.url', 'non-public']],
  ['webhook', { url: 'https://u:p@hooks.example.com/' }, ['config.url', 'credentials']],
  ['webhook', { url: 'https://hooks.example.com/n', webhook_url: SLACK }, ['config.webhook_url', 'unknown key']],
  ['webhook', { url: 42 }, ['config.url', 'string']],
  ['webhook', 'https://hooks.example.com/', ['config', 'object']],
  ['webhook', ['https://hooks.example.com/'], ['config', 'object']],
  ['webhook', JSON.parse('{"url":"https://hooks.example.com/","__proto__":{"x":1}}'), ['config.__proto__', 'unknown key']],
  ['slack', { webhook_url: SLACK }, true],
  ['slack', { webhook_url: 'https://hooks.slack.com.internal/x' }, ['config.webhook_url', 'private name']],
  ['slack', { url: SLACK }, ['config.url', 'unknown key']],
  ['teams', { webhook_url: 'https://acme.webhook.office.com/webhookb2/abc' }, true],
  ['teams', { webhook_url: 'https://localhost/x' }, ['config.webhook_url', 'private name']],
  ['jira', JIRA, true],
  ['jira', { ...JIRA, base_url: 'https://jira.acme.com/jira/' }, true],
  ['jira', { ...JIRA, base_url: 'https://acme.atlassian.net/?x=1' }, ['config.base_url', 'query']],
  ['jira', { ...JIRA, base_url: 'https://[fd00::1]/' }, ['config.base_url', 'non-public']],
  ['jira', { ...JIRA, email: 'not-an-address' }, ['config.email', 'e-mail']],
  ['jira', { ...JIRA, api_token: '' }, ['config.api_token', '1 to 1024']],
  ['jira', { ...JIRA, project_key: '1OPS' }, ['config.project_key', 'project key']],
  ['jira', { ...JIRA, project_key: 'OPS; DROP' }, ['config.project_key', 'project key']],
  ['jira', { base_url: JIRA.base_url, email: JIRA.email, project_key: 'OPS' }, ['config.api_token', 'required']],
  ['jira', { ...JIRA, secret: 'whatever1' }, ['config.secret', 'unknown key']],
  ['email', { recipients: 'a@acme.com' }, true],
  ['email', { recipients: 'a@acme.com, b.c+ops@mail.acme.co.uk' }, true],
  ['email', { recipients: 'a@acme.com,,b@acme.com' }, ['config.recipients', 'empty entry']],
  ['email', { recipients: 'a@acme.com, bob' }, ['config.recipients', 'invalid address: bob']],
  ['email', { recipients: 'a@localhost' }, ['config.recipients', 'invalid address']],
  ['email', { recipients: 'a..b@acme.com' }, ['config.recipients', 'invalid address']],
  ['email', { recipients: '"q"@acme.com' }, ['config.recipients', 'invalid address']],
  ['email', { recipients: 'a@-acme.com' }, ['config.recipients', 'invalid address']],
  ['email', { recipients: Array.from({ length: 51 }, (_, i) => `u${i}@acme.com`).join(',') }, ['config.recipients', 'at most 50']],
  ['email', { recipients: 'a@acme.com', webhook_url: SLACK }, ['config.webhook_url', 'unknown key']],
];

describe('validateChannelConfig', () => {
  it.each(CASES)('%s %j', (type, config, expected) => {
    const r = validateChannelConfig(type, config);
    if (expected === true) {
      expect(r.ok).toBe(true);
    } else {
      expect(r).toEqual({ ok: false, param: expected[0], reason: expect.stringContaining(expected[1]) });
    }
  });

  it('returns only the listed keys and normalises recipients', () => {
    expect(validateChannelConfig('email', { recipients: ' a@acme.com ,b@acme.com ' })).toEqual({
      ok: true,
      config: { recipients: 'a@acme.com,b@acme.com' },
    });
  });
});

describe('redactChannelConfig', () => {
  it.each([
    ['webhook', { url: 'https://hooks.example.com/n', secret: 'eight888' }, { url: 'https://hooks.example.com/n', secret: REDACTED }],
    ['webhook', { url: 'https://hooks.example.com/n' }, { url: 'https://hooks.example.com/n' }],
    ['slack', { webhook_url: SLACK }, { webhook_url: `https://hooks.slack.com/${REDACTED}` }],
    ['teams', { webhook_url: 'https://acme.webhook.office.com:8443/webhookb2/abc' }, { webhook_url: `https://acme.webhook.office.com:8443/${REDACTED}` }],
    ['jira', JIRA, { ...JIRA, api_token: REDACTED }],
    ['email', { recipients: 'a@acme.com' }, { recipients: 'a@acme.com' }],
    ['email', { recipients: 'a@acme.com', smtp_password: 'legacy' }, { recipients: 'a@acme.com', smtp_password: REDACTED }],
  ] as const)('%s %j', (type, config, expected) => {
    expect(redactChannelConfig(type, config)).toEqual(expected);
  });

  it('never leaks any part of a secret', () => {
    const out = JSON.stringify(redactChannelConfig('slack', { webhook_url: SLACK }));
    expect(out).not.toContain('XXXXXXXX');
    expect(out).not.toContain('T000');
  });
});

describe('restoreRedacted', () => {
  it('keeps stored secrets the client echoed back masked, and takes new values', () => {
    const stored = { url: 'https://hooks.example.com/n', secret: 'old-secret-1' };
    const echoed = redactChannelConfig('webhook', stored);
    expect(restoreRedacted('webhook', stored, echoed)).toEqual(stored);
    expect(restoreRedacted('webhook', stored, { ...echoed, secret: 'new-secret-2' })).toEqual({ ...stored, secret: 'new-secret-2' });
    const slack = { webhook_url: SLACK };
    expect(restoreRedacted('slack', slack, redactChannelConfig('slack', slack))).toEqual(slack);
    // a masked value that does not match the stored one is left for validation to refuse
    const foreign = restoreRedacted('slack', slack, { webhook_url: `https://evil.example.com/${REDACTED}` });
    expect(validateChannelConfig('slack', foreign)).toMatchObject({ ok: false, reason: expect.stringContaining('mask') });
  });

  it('never re-aims a stored secret at a new destination: the secret must be sent again', () => {
    const jira = { base_url: 'https://acme.atlassian.net', email: 'bot@acme.com', api_token: 'REAL-JIRA-TOKEN', project_key: 'OPS' };
    const masked = redactChannelConfig('jira', jira);
    expect(restoreRedacted('jira', jira, masked)).toEqual(jira); // plain round trip still works
    for (const change of [{ base_url: 'https://attacker.example' }, { email: 'me@attacker.example' }, { project_key: 'MINE' }]) {
      const out = restoreRedacted('jira', jira, { ...masked, ...change });
      expect(out.api_token).toBe(REDACTED);
      expect(validateChannelConfig('jira', out)).toMatchObject({ ok: false });
    }
    const hook = { url: 'https://hooks.example.com/n', secret: 'old-secret-1' };
    const moved = restoreRedacted('webhook', hook, { ...redactChannelConfig('webhook', hook), url: 'https://attacker.example/x' });
    expect(moved.secret).toBe(REDACTED);
    expect(validateChannelConfig('webhook', moved)).toMatchObject({ ok: false });
  });
});
