import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { forbiddenCharacter, headerSafe } from '../../../shared/domain/text-rules';
import type { Mail, Mailer } from '../../ports/mailer';

let client: SESv2Client | undefined;
/** The SES client, once per module instance. */
export function ses(): SESv2Client {
  client ??= new SESv2Client({ maxAttempts: 3 });
  return client;
}

/** Sends plain-text mail through SES (v2 API); locally the same calls reach aws-ses-v2-local. */
export class SesMailer implements Mailer {
  constructor(private readonly from: string) {}

  async send(mail: Mail): Promise<void> {
    // Nothing reaches a header raw: the subject is flattened to one clean line (it may carry a package
    // name stored before names were checked), and an address with a control character is never sent.
    if (forbiddenCharacter(mail.to, 'name') !== null)
      throw new Error('Refusing to send mail to an address holding a control or invisible character');
    await ses().send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [mail.to] },
        Content: {
          Simple: {
            Subject: { Data: headerSafe(mail.subject), Charset: 'UTF-8' },
            Body: { Text: { Data: mail.text, Charset: 'UTF-8' } },
          },
        },
      }),
    );
  }
}
