import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMail, SmtpError } from '../../../src/dashboard/smtp-client.js';
import { closedPort } from '../events/receiver.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';

let sink: SmtpSink;
let rejecting: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  rejecting = await startSmtpSink({ rejectRcpt: true });
});

afterAll(async () => {
  await sink.close();
  await rejecting.close();
});

const cfg = (port: number): { host: string; port: number; from: string; helo: string; timeoutMs: number } => ({
  host: '127.0.0.1',
  port,
  from: 'svc@example.com',
  helo: 'svc-test',
  timeoutMs: 2_000,
});

describe('SMTP client against a local sink', () => {
  it('speaks EHLO, MAIL FROM, RCPT TO, DATA, QUIT and delivers headers and a dot-stuffed body intact', async () => {
    const text = 'Line one\n.hidden line starting with a dot\n..two dots\nlast';
    await sendMail(cfg(sink.port), { to: ['a@example.com', 'b@example.com'], subject: 'Budget reached', text }, new Date('2030-01-02T03:04:05Z'));
    const [mail] = await sink.waitFor(1);
    expect(mail).toMatchObject({ helo: 'svc-test', from: 'svc@example.com', to: ['a@example.com', 'b@example.com'] });
    const [head, body] = mail!.data.split('\r\n\r\n');
    expect(head?.split('\r\n')).toEqual([
      'From: svc@example.com',
      'To: a@example.com, b@example.com',
      'Subject: Budget reached',
      'Date: Wed, 02 Jan 2030 03:04:05 GMT',
      expect.stringMatching(/^Message-ID: <[0-9a-f-]{36}@example\.com>$/),
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
    ]);
    expect(body).toBe(text.replace(/\n/g, '\r\n'));
  });

  it('a CR/LF in the subject cannot add a header; a non-ASCII subject is encoded', async () => {
    const before = sink.mails.length;
    await sendMail(cfg(sink.port), { to: ['a@example.com'], subject: 'Hi\r\nBcc: evil@example.com', text: 'x' });
    await sendMail(cfg(sink.port), { to: ['a@example.com'], subject: 'Budget überschritten', text: 'x' });
    const [inj, utf] = (await sink.waitFor(before + 2)).slice(before);
    expect(inj?.data).toContain('Subject: Hi Bcc: evil@example.com\r\n');
    expect(inj?.data.split('\r\n\r\n')[0]).not.toMatch(/^Bcc:/m);
    expect(inj?.to).toEqual(['a@example.com']);
    expect(utf?.data).toContain(`Subject: =?UTF-8?B?${Buffer.from('Budget überschritten').toString('base64')}?=`);
  });

  it('a refused recipient, a closed port and a bad address each reject with SmtpError', async () => {
    await expect(sendMail(cfg(rejecting.port), { to: ['a@example.com'], subject: 's', text: 't' })).rejects.toMatchObject({ name: 'SmtpError', code: 550 });
    const down = await closedPort();
    await expect(sendMail(cfg(down), { to: ['a@example.com'], subject: 's', text: 't' })).rejects.toBeInstanceOf(SmtpError);
    await expect(sendMail(cfg(sink.port), { to: ['a@example.com>\r\nRCPT TO:<x@evil.com'], subject: 's', text: 't' })).rejects.toThrow('not a deliverable address');
    expect(rejecting.mails).toHaveLength(0);
  });
});
