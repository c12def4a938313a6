import { companySignOnEnabled } from '../composition-company';
import { optionalEnv } from '../config/env';
import { route } from '../routes/company-sign-on';

/** Whether "Sign in with <company>" is offered: read from the environment, no store touched. */
export const handler = route('companySignOnInfo', async () => ({
  body: companySignOnEnabled()
    ? {
        enabled: true,
        companyName: optionalEnv('COMPANY_IDP_NAME', 'your company'),
        companyOnly: optionalEnv('COMPANY_SIGN_ON_ONLY', 'false') === 'true',
      }
    : { enabled: false },
}));
