import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { MailMessage, Mailer } from './mailer.js';

/**
 * A minimal SMTP submission client (RFC 5321): `smtp://user:pass@host:587?from=noreply@example.com`
 * for a plain connection, `smtps://...:465` for implicit TLS. AUTH PLAIN when credentials are given.
 * One connection per message: verification mail is rare.
 */
export class SmtpMailer implements Mailer {
  private readonly url: URL;

  constructor(smtpUrl: string, private readonly timeoutMs = 10_000) {
    this.url = new URL(smtpUrl);
    if (this.url.protocol !== 'smtp:' && this.url.protocol !== 'smtps:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  }

  async send(msg: MailMessage): Promise<void> {
    const secure = this.url.protocol === 'smtps:';
    const port = Number(this.url.port || (secure ? 465 : 25));
    const host = this.url.hostname;
    const from = this.url.searchParams.get('from') ?? `no-reply@${host}`;
    const socket: Socket = secure ? tlsConnect({ host, port, servername: host }) : netConnect({ host, port });
    socket.setTimeout(this.timeoutMs, () => socket.destroy(new Error('SMTP timeout')));
    const replies = replyReader(socket);
    const expect = async (code: number) => {
      const r = await replies.next();
      if (r.code !== code) throw new Error(`SMTP: expected ${code}, got ${r.code}`);
    };
    const cmd = async (line: string, code: number) => {
      socket.write(`${line}\r\n`);
      await expect(code);
    };
    try {
      await expect(220);
      await cmd('EHLO catalog-service', 250);
      if (this.url.username) {
        const auth = Buffer.from(`\0${decodeURIComponent(this.url.username)}\0${decodeURIComponent(this.url.password)}`).toString('base64');
        await cmd(`AUTH PLAIN ${auth}`, 235);
      }
      await cmd(`MAIL FROM:<${from}>`, 250);
      await cmd(`RCPT TO:<${msg.to}>`, 250);
      await cmd('DATA', 354);
      const body = msg.text.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
      await cmd(`From: <${from}>\r\nTo: <${msg.to}>\r\nSubject: ${msg.subject}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n.`, 250);
      socket.write('QUIT\r\n');
    } finally {
      socket.end();
    }
  }
}

/** Multi-line SMTP replies ("250-..." continued, "250 ..." last) as one code each. */
function replyReader(socket: Socket) {
  let buffer = '';
  const ready: Array<{ code: number }> = [];
  const waiting: Array<{ resolve: (r: { code: number }) => void; reject: (e: Error) => void }> = [];
  let failure: Error | null = null;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let i: number;
    while ((i = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 2);
      if (line[3] === '-') continue;
      const reply = { code: Number(line.slice(0, 3)) };
      const w = waiting.shift();
      if (w) w.resolve(reply);
      else ready.push(reply);
    }
  });
  const fail = (e: Error) => {
    failure = e;
    for (const w of waiting.splice(0)) w.reject(e);
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('SMTP connection closed')));
  return {
    next(): Promise<{ code: number }> {
      const r = ready.shift();
      if (r) return Promise.resolve(r);
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
  };
}
