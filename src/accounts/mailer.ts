import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface MailMessage { to: string; subject: string; text: string }

export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

/**
 * No mail server configured (development, demos): each message, verification link included, is
 * written to a file of its own (mode 0600) in MAIL_DIR, and the log names only the file, so no
 * token ever reaches a log. Set SMTP_URL in any deployment with real users.
 */
export class DirectoryMailer implements Mailer {
  constructor(readonly dir: string, private readonly log: (line: string) => void = (line) => console.log(line)) {}

  async send(msg: MailMessage): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
    const header = (value: string) => value.replace(/[\r\n]+/g, ' ');
    await writeFile(file, `To: ${header(msg.to)}\nSubject: ${header(msg.subject)}\n\n${msg.text}\n`, { mode: 0o600, flag: 'wx' });
    this.log(JSON.stringify({ level: 'info', msg: 'mail not sent (no SMTP_URL); written to a file', file }));
  }
}
