import { SesMailer } from './adapters/ses/ses-mailer';
import { provideMailer } from './composition';
import { requireEnv } from './config/env';

/**
 * Plugs the SES mailer into the composition root. Imported for this effect by the handlers of routes whose
 * row `uses.mail`, so only their Lambdas bundle the SES client (docs/decisions/052-composition-by-adapter.md).
 */
provideMailer(() => new SesMailer(requireEnv('MAIL_FROM')));
