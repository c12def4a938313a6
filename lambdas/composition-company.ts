import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoCompanyIdentityStore } from './adapters/dynamodb/company-identity-store';
import { OpenIdClientProvider } from './adapters/oidc/openid-client-provider';
import {
  auditTable,
  loadTokenService,
  noMailer,
  once,
  retryingLoad,
  userRepository,
  userServiceConfig,
} from './composition';
import { appUrl, intEnv, optionalEnv, requireEnv, tableName } from './config/env';
import { systemClock } from './ports/clock';
import type { CompanyIdentityStore } from './ports/company-identity-store';
import { CompanySignOnService } from './services/company-sign-on-service';

/** The SPA page the provider sends the browser back to (registered at the provider as the redirect URI). */
export const COMPANY_CALLBACK_PATH = '/login/company';

/** Whether the stage names a company identity provider (COMPANY_IDP_ISSUER, decision 315). */
export const companySignOnEnabled = (): boolean => Boolean(process.env.COMPANY_IDP_ISSUER);

/** The company sign-on store in the users table. */
export const companyIdentityStore = /* @__PURE__ */ once(
  (): CompanyIdentityStore => new DynamoCompanyIdentityStore(tableName('users'), auditTable),
);

/**
 * The client secret: COMPANY_IDP_CLIENT_SECRET locally; in AWS the Secrets Manager secret named by
 * COMPANY_IDP_CLIENT_SECRET_ARN, read on first use and never logged (the stage holds only its ARN).
 */
async function clientSecret(): Promise<string> {
  const direct = process.env.COMPANY_IDP_CLIENT_SECRET;
  if (direct) return direct;
  const r = await new SecretsManagerClient({}).send(
    new GetSecretValueCommand({ SecretId: requireEnv('COMPANY_IDP_CLIENT_SECRET_ARN') }),
  );
  if (!r.SecretString) throw new Error('the identity provider client secret is empty');
  return r.SecretString.trim();
}

/** The company sign-on service; built after the token key is read, again after a failed build. */
export const loadCompanySignOn: () => Promise<CompanySignOnService> = /* @__PURE__ */ retryingLoad(
  async () => {
    const tokens = await loadTokenService();
    const users = userRepository();
    const config = userServiceConfig();
    const name = optionalEnv('COMPANY_IDP_NAME', 'your company');
    return new CompanySignOnService(
      { users, tokens, mailer: noMailer, clock: systemClock, config },
      companyIdentityStore(),
      new OpenIdClientProvider({
        issuer: requireEnv('COMPANY_IDP_ISSUER'),
        clientId: requireEnv('COMPANY_IDP_CLIENT_ID'),
        clientSecret,
        redirectUri: `${appUrl()}${COMPANY_CALLBACK_PATH}`,
      }),
      {
        name,
        allowedEmailDomains: optionalEnv('COMPANY_IDP_EMAIL_DOMAINS', '')
          .split(',')
          .map((x) => x.trim().toLowerCase())
          .filter(Boolean),
        startLimit: {
          perSource: intEnv('COMPANY_SIGN_ON_MAX_STARTS_PER_SOURCE', 60),
          windowSeconds: intEnv('COMPANY_SIGN_ON_START_WINDOW_SECONDS', 15 * 60),
        },
      },
    );
  },
);
