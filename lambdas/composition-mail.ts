import { SesMailer } from './adapters/ses/ses-mailer';
import { once, userServiceWith } from './composition';
import { requireEnv } from './config/env';
import type { Mailer } from './ports/mailer';
import type { UserService } from './services/user-service';

/**
 * The getters of composition.ts composed with the SES mailer. Only the handlers of routes whose row
 * `uses.mail` import them, so only their Lambdas bundle the SES client
 * (docs/decisions/052-composition-by-adapter.md).
 */

/** The SES mailer; MAIL_FROM is read when the first mail is sent. */
export const mailer = /* @__PURE__ */ once((): Mailer => new SesMailer(requireEnv('MAIL_FROM')));

/** The identity service that mails (registration, confirmation, reset, account and role changes). */
export const loadUserServiceWithMail: () => Promise<UserService> = /* @__PURE__ */ userServiceWith({
  send: (m) => mailer().send(m),
});
