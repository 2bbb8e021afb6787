export interface MailMessage { to: string; subject: string; text: string }

export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

/**
 * No mail server configured (development, demos): the message, verification link included, goes to
 * the server log so an operator can pass it on. Set SMTP_URL in any deployment with real users.
 */
export class LogMailer implements Mailer {
  constructor(private readonly write: (line: string) => void = (line) => console.log(line)) {}

  async send(msg: MailMessage): Promise<void> {
    this.write(JSON.stringify({ level: 'info', msg: 'mail not sent (no SMTP_URL); logged instead', to: msg.to, subject: msg.subject, text: msg.text }));
  }
}
