import type { Mail, Mailer } from '../../ports/mailer';

/** A mailer that keeps what it sends; `failWith` makes the next sends fail (an SES outage). */
export class MemoryMailer implements Mailer {
  readonly sent: Mail[] = [];
  failWith: Error | undefined;

  async send(mail: Mail): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.sent.push({ ...mail });
  }
}
