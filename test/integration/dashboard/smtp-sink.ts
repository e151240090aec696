/**
 * A local SMTP sink: speaks just enough RFC 5321 to accept mail and records each message's envelope and
 * raw DATA. `rejectRcpt` makes it refuse recipients (550) to exercise the client's error path.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface SunkMail {
  helo: string;
  from: string;
  to: string[];
  /** DATA as received, dot-stuffing undone, without the terminating ".". */
  data: string;
}

export interface SmtpSink {
  port: number;
  mails: SunkMail[];
  /** Resolves once `n` messages have arrived (or rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<SunkMail[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(opts: { rejectRcpt?: boolean } = {}): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.setEncoding('utf8');
    let buf = '';
    let inData = false;
    let cur: SunkMail = { helo: '', from: '', to: [], data: '' };
    const say = (l: string): void => {
      sock.write(l + '\r\n');
    };
    say('220 sink.test ESMTP ready');
    sock.on('data', (chunk: string) => {
      buf += chunk;
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          cur.data = buf
            .slice(0, end)
            .split('\r\n')
            .map((l) => (l.startsWith('..') ? l.slice(1) : l))
            .join('\r\n');
          buf = buf.slice(end + 5);
          inData = false;
          mails.push(cur);
          cur = { helo: cur.helo, from: '', to: [], data: '' };
          say('250 2.0.0 queued');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') {
          cur.helo = line.slice(5);
          sock.write('250-sink.test greets you\r\n250-8BITMIME\r\n250 SIZE 1000000\r\n');
        } else if (line.toUpperCase().startsWith('MAIL FROM:')) {
          cur.from = line.slice(10).replace(/[<>]/g, '');
          say('250 2.1.0 ok');
        } else if (line.toUpperCase().startsWith('RCPT TO:')) {
          if (opts.rejectRcpt === true) say('550 5.1.1 no such user');
          else {
            cur.to.push(line.slice(8).replace(/[<>]/g, ''));
            say('250 2.1.5 ok');
          }
        } else if (verb === 'DATA') {
          inData = true;
          say('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          say('221 2.0.0 bye');
          sock.end();
        } else say('502 5.5.2 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('sink did not bind');
  return {
    port: addr.port,
    mails,
    async waitFor(n, ms = 3_000) {
      const until = Date.now() + ms;
      while (mails.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} mails, got ${mails.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return mails;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
