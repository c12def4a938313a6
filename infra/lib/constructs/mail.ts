import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { PortalConfig } from '../portal-config';

export interface MailProps {
  config: PortalConfig;
}

/**
 * The SES identity mails are sent from. An email-address identity is verified by the link SES mails to
 * it after deploy; production sending also needs the account out of the SES sandbox (docs/infra.md).
 */
export class Mail extends Construct {
  readonly identity: ses.EmailIdentity;
  readonly senderAddress: string;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    this.senderAddress = props.config.senderAddress;
    this.identity = new ses.EmailIdentity(this, 'Sender', {
      identity: ses.Identity.email(this.senderAddress),
    });
  }
}
