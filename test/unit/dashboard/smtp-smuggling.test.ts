import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../../src/dashboard/smtp-client.js';

describe('SMTP smuggling', () => {
  it('a lone CR in user text cannot end DATA early: it becomes a line end and the dot is stuffed', () => {
    const out = renderMessage('svc@example.com', { to: ['a@example.com'], subject: 's', text: 'Key evil\r.\r\nMAIL FROM:<x@y.co>' }, new Date(0));
    expect(out).not.toMatch(/\r\.\r\n/);
    expect(out).toContain('\r\n..\r\nMAIL FROM');
  });
});
