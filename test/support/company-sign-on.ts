import { inject } from 'vitest';
import { COMPANY_PASSWORD, type CompanyAccount } from '../../infra/local/company-idp';
import { type ApiResult, api, baseUrl, uniq } from './api';
import { CompanyBrowser, putCompanyAccounts } from './company-idp';

/** Company sign-on against the shared stack's local provider, over HTTP as the SPA and a browser do. */

/** Where the provider sends the browser back: the SPA's page on the portal's own address (APP_URL). */
export const callbackPrefix = (base = baseUrl()) => `${base.replace('127.0.0.1', 'localhost')}/login/company`;

export interface Started {
  authorizationUrl: string;
  binding: string;
}

/** POST /company-sign-on/start (or, with a token, /company-sign-on/reauth). */
export async function startSignOn(token?: string): Promise<Started> {
  const r = await api<Started>(token ? '/company-sign-on/reauth' : '/company-sign-on/start', {
    method: 'POST',
    token,
  });
  if (r.status !== 200) throw new Error(`start failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Signs in at the provider's pages from a started sign-in: the query string the portal's page gets. */
export async function atCompany(
  started: Started,
  email: string,
  password = COMPANY_PASSWORD,
  browser = new CompanyBrowser(),
): Promise<string> {
  const r = await browser.signIn(started.authorizationUrl, callbackPrefix(), email, password);
  if (!('search' in r))
    throw new Error(`the provider did not send the browser back:\n${r.page.slice(0, 600)}`);
  return r.search;
}

export interface CallbackBody {
  outcome?: 'SIGNED_IN' | 'LINK_REQUIRED' | 'REAUTHENTICATED';
  token?: string;
  user?: string;
  linkTicket?: string;
  email?: string;
  reauthTicket?: string;
  errorMessage?: string;
}

/** POST /company-sign-on/callback. */
export const callback = (search: string, binding: string): Promise<ApiResult<CallbackBody>> =>
  api<CallbackBody>('/company-sign-on/callback', { method: 'POST', body: { search, binding } });

/** The whole sign-in: start, the provider's pages, the callback. */
export async function companySignIn(email: string, browser?: CompanyBrowser, password?: string) {
  const started = await startSignOn();
  return callback(await atCompany(started, email, password, browser), started.binding);
}

/** A new person of the company (a unique address on the allowed domain), added to its directory. */
export function newEmployee(change: Partial<CompanyAccount> = {}): CompanyAccount {
  const id = uniq('emp');
  const a: CompanyAccount = {
    sub: id,
    email: `${id}@example.com`,
    email_verified: true,
    name: `Employee ${id.slice(-5)}`,
    password: COMPANY_PASSWORD,
    ...change,
  };
  putCompanyAccounts(inject('dataDir'), [a]);
  return a;
}
