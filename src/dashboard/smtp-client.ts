/**
 * A minimal SMTP client (RFC 5321) over node:net for budget and low-balance notices: EHLO, MAIL FROM,
 * RCPT TO, DATA, QUIT. No AUTH and no STARTTLS: it is meant for a local relay (or a sink in tests) that
 * takes mail from this host; see the report on issue 5.
 */
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { isEmailAddress } from '../events/channel-config.js';

export interface SmtpConfig {
  host: string;
  port: number;
  from: string;
  /** Name announced in EHLO. */
  helo: string;
  timeoutMs?: number;
}

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
}

export class SmtpError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'SmtpError';
  }
}

/** Reads whole SMTP replies (`250-...` continuation lines, then `250 ...`). */
class ReplyReader {
  #buf = '';
  #waiting: ((r: { code: number; text: string } | Error) => void) | null = null;
  #queue: ({ code: number; text: string } | Error)[] = [];

  constructor(socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.#feed(chunk));
    socket.on('error', (e) => this.#push(e));
    socket.on('close', () => this.#push(new Error('connection closed')));
  }

  #feed(chunk: string): void {
    this.#buf += chunk;
    for (;;) {
      const lines = this.#buf.split('\r\n');
      const done = lines.findIndex((l) => /^\d{3}(?: |$)/.test(l));
      if (done < 0 || done === lines.length - 1) return;
      const reply = lines.slice(0, done + 1);
      this.#buf = lines.slice(done + 1).join('\r\n');
      this.#push({ code: Number(reply[done]!.slice(0, 3)), text: reply.map((l) => l.slice(4)).join('\n') });
    }
  }

  #push(r: { code: number; text: string } | Error): void {
    const w = this.#waiting;
    if (w) {
      this.#waiting = null;
      w(r);
    } else this.#queue.push(r);
  }

  next(): Promise<{ code: number; text: string }> {
    const r = this.#queue.shift();
    const settle = (v: { code: number; text: string } | Error): { code: number; text: string } => {
      if (v instanceof Error) throw v;
      return v;
    };
    if (r !== undefined) return Promise.resolve(r).then(settle);
    return new Promise((resolve, reject) => {
      this.#waiting = (v) => (v instanceof Error ? reject(v) : resolve(v));
    });
  }
}

/** Header values must not smuggle a second header or a second recipient (CR/LF injection). */
function headerSafe(v: string): string {
  return v.replace(/[\r\n]+/g, ' ');
}

/** RFC 5321 4.5.2: a line starting with "." is sent with one more; line ends normalised to CRLF. */
function dotStuff(text: string): string {
  return text
    // Every line end, a lone CR included, becomes CRLF, so the dot-stuffing below covers it: a relay that took
    // <CR>.<CR><LF> as the end of DATA would otherwise run whatever follows ("SMTP smuggling").
    .replace(/\r\n|\n|\r/g, '\n')
    .replace(/\n/g, '\r\n')
    .split('\r\n')
    .map((l) => (l.startsWith('.') ? '.' + l : l))
    .join('\r\n');
}

export function renderMessage(from: string, msg: MailMessage, now: Date): string {
  const domain = from.slice(from.lastIndexOf('@') + 1);
  const clean = headerSafe(msg.subject);
  // RFC 2047 encoded-word for anything beyond printable ASCII.
  const subject = /^[\x20-\x7e]*$/.test(clean) ? clean : `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
  const head = [
    `From: ${from}`,
    `To: ${msg.to.join(', ')}`,
    `Subject: ${subject}`,
    `Date: ${now.toUTCString()}`,
    `Message-ID: <${randomUUID()}@${domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
  ];
  return `${head.join('\r\n')}\r\n\r\n${dotStuff(msg.text)}`;
}

/** Sends one message; resolves when the server accepted the DATA, rejects with SmtpError otherwise. */
export async function sendMail(cfg: SmtpConfig, msg: MailMessage, now: Date = new Date()): Promise<void> {
  const addresses = [cfg.from, ...msg.to];
  const bad = addresses.find((a) => !isEmailAddress(a));
  if (bad !== undefined) throw new SmtpError(`not a deliverable address: ${headerSafe(bad)}`, 0);
  if (msg.to.length === 0) throw new SmtpError('no recipients', 0);
  const socket = connect({ host: cfg.host, port: cfg.port });
  socket.setTimeout(cfg.timeoutMs ?? 10_000, () => socket.destroy(new Error('SMTP timeout')));
  const replies = new ReplyReader(socket);
  const expect = async (ok: number[], step: string): Promise<void> => {
    const r = await replies.next();
    if (!ok.includes(r.code)) throw new SmtpError(`SMTP ${step} refused: ${r.code} ${r.text}`, r.code);
  };
  const say = (line: string): void => {
    socket.write(line + '\r\n');
  };
  try {
    await expect([220], 'greeting');
    say(`EHLO ${headerSafe(cfg.helo)}`);
    await expect([250], 'EHLO');
    say(`MAIL FROM:<${cfg.from}>`);
    await expect([250], 'MAIL FROM');
    for (const to of msg.to) {
      say(`RCPT TO:<${to}>`);
      await expect([250, 251], 'RCPT TO');
    }
    say('DATA');
    await expect([354], 'DATA');
    socket.write(`${renderMessage(cfg.from, msg, now)}\r\n.\r\n`);
    await expect([250], 'message');
    say('QUIT');
    await expect([221], 'QUIT').catch(() => undefined);
  } catch (e) {
    if (e instanceof SmtpError) throw e;
    throw new SmtpError(`SMTP ${e instanceof Error ? e.message : String(e)}`, 0);
  } finally {
    socket.destroy();
  }
}

/** What the notifier needs; `SmtpMailer` is the real one. */
export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

export class SmtpMailer implements Mailer {
  constructor(private readonly cfg: SmtpConfig) {}

  send(msg: MailMessage): Promise<void> {
    return sendMail(this.cfg, msg);
  }
}
