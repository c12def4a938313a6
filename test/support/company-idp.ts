import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompanyAccount } from '../../infra/local/company-idp';

/**
 * A person at the local company provider's real pages, over HTTP (the same pages a browser shows):
 * follows the authorization URL, fills the login form, follows the redirects, and stops at the portal's
 * callback address, whose query string it answers. Cookies are kept per person, like a browser profile.
 */
export class CompanyBrowser {
  private readonly cookies = new Map<string, string>();

  private header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private async go(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.header(), Connection: 'close' },
    });
    this.keep(res);
    return res;
  }

  /**
   * Follows `url` until the provider shows a page (200: its login form or an error) or sends the browser
   * to the portal (`callbackPrefix`): then `{ search }`, the query string the portal's page gets.
   */
  async follow(
    url: string,
    callbackPrefix: string,
    init?: RequestInit,
  ): Promise<{ search: string } | { page: string; url: string }> {
    let next = url;
    let req = init;
    for (let hops = 0; hops < 10; hops++) {
      if (next.startsWith(callbackPrefix)) return { search: new URL(next).search };
      const res = await this.go(next, req);
      req = undefined;
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        next = new URL(location, next).href;
        continue;
      }
      return { page: await res.text(), url: next };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /**
   * Signs in at the provider as `email` from the portal's authorization URL: `{ search }` when the provider
   * sends the browser back to the portal, or the page it showed instead (a refusal on its login form).
   */
  async signIn(authorizationUrl: string, callbackPrefix: string, email: string, password: string) {
    const first = await this.follow(authorizationUrl, callbackPrefix);
    if ('search' in first) return first; // a session at the provider: no form shown (not with prompt=login)
    const form = /action="([^"]+\/login)"/.exec(first.page);
    if (!form) return first;
    return this.follow(new URL(form[1]!, first.url).href, callbackPrefix, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password }).toString(),
    });
  }
}

/** The local provider's directory file of a stack's data folder. */
export const companyAccountsFile = (dataDir: string) => join(dataDir, 'company-idp', 'accounts.json');

/** Adds or replaces people of the local company (read at every sign-in: no restart). */
export function putCompanyAccounts(dataDir: string, accounts: CompanyAccount[]): void {
  const file = companyAccountsFile(dataDir);
  const now = JSON.parse(readFileSync(file, 'utf8')) as CompanyAccount[];
  const bySub = new Map(now.map((a) => [a.sub, a]));
  for (const a of accounts) bySub.set(a.sub, a);
  writeFileSync(file, `${JSON.stringify([...bySub.values()], null, 2)}\n`);
}

/** Changes one person of the local company (an address, disabled, verified). */
export function updateCompanyAccount(dataDir: string, sub: string, change: Partial<CompanyAccount>): void {
  const file = companyAccountsFile(dataDir);
  const now = JSON.parse(readFileSync(file, 'utf8')) as CompanyAccount[];
  const a = now.find((x) => x.sub === sub);
  if (!a) throw new Error(`no company account ${sub}`);
  Object.assign(a, change);
  writeFileSync(file, `${JSON.stringify(now, null, 2)}\n`);
}
