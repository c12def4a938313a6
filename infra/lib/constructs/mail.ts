import { CfnOutput, Fn, Stack } from 'aws-cdk-lib';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { PortalConfig } from '../portal-config';
import { ALWAYS_KEPT } from '../removal';

export interface MailProps {
  config: PortalConfig;
}

/** The SES identity ARN of an address or domain in this stack's account and region. */
export const sesIdentityArn = (scope: Construct, identity: string): string =>
  Stack.of(scope).formatArn({ service: 'ses', resource: 'identity', resourceName: identity });

/**
 * The SES identity mails are sent from (decision 201), per the stage's `sesIdentity`:
 * - `create-domain`: the identity of the sender's domain with Easy DKIM; its three CNAME records are the
 *   outputs DkimRecord1..3 (put them in DNS; SES verifies the domain once they resolve);
 * - `create-address`: an email-address identity (SES mails a link to it); no DKIM of its own;
 * - `adopt-domain` / `adopt-address`: the identity exists already; nothing is created (creating it again
 *   fails the deploy with AlreadyExists).
 * `sendingIdentityArns` is what ses:SendEmail is granted on: SES authorizes a send against the identity
 * it uses for the From address (the address's own, else its domain's), and in the sandbox also against
 * each recipient's identity, so the verified recipients of the stage (sesSandboxRecipients) are listed too.
 */
export class Mail extends Construct {
  readonly senderAddress: string;
  /** the identity this stack created; undefined when adopted */
  readonly identity?: ses.EmailIdentity;
  /** the identities ses:SendEmail is granted on (address, domain, sandbox recipients) */
  readonly sendingIdentityArns: string[];

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    const { config } = props;
    this.senderAddress = config.senderAddress;
    const stack = Stack.of(this);

    if (config.sesIdentity === 'create-domain') {
      this.identity = new ses.EmailIdentity(this, 'Domain', {
        identity: ses.Identity.domain(config.senderDomain),
        dkimSigning: true,
        dkimIdentity: ses.DkimIdentity.easyDkim(ses.EasyDkimSigningKeyLength.RSA_2048_BIT),
      });
      const tokens: [string, string][] = [
        [this.identity.dkimDnsTokenName1, this.identity.dkimDnsTokenValue1],
        [this.identity.dkimDnsTokenName2, this.identity.dkimDnsTokenValue2],
        [this.identity.dkimDnsTokenName3, this.identity.dkimDnsTokenValue3],
      ];
      tokens.forEach(([name, value], i) => {
        new CfnOutput(stack, `DkimRecord${i + 1}`, {
          value: Fn.join(' ', [name, 'CNAME', value]),
          description: `Easy DKIM record ${i + 1} of 3 for ${config.senderDomain}: add it to the domain's DNS (docs/infra.md, Mail)`,
        });
      });
    } else if (config.sesIdentity === 'create-address') {
      this.identity = new ses.EmailIdentity(this, 'Sender', {
        identity: ses.Identity.email(config.senderAddress),
      });
    }

    // Kept when the stack goes (decision 313): its DKIM records stay valid in DNS, and other senders of the
    // domain keep their mail; a failed first create still removes it. A new stack then adopts it.
    this.identity?.applyRemovalPolicy(ALWAYS_KEPT);

    this.sendingIdentityArns = [
      ...new Set([config.senderAddress, config.senderDomain, ...config.sesSandboxRecipients]),
    ].map((identity) => sesIdentityArn(this, identity));
  }
}
