import type { CompanyIdentityStore } from '../ports/company-identity-store';
import type { IdentityProvider } from '../ports/identity-provider';
import type { UserRecord } from '../ports/user-repository';
import {
  type CompanyLinkDecision,
  type CompanyLinkOutcome,
  decideCompanyLinks,
} from './company-sign-on/admin-links';
import { type CallbackResult, companyCallback } from './company-sign-on/callback';
import type { CompanySignOnConfig, CompanySignOnDeps } from './company-sign-on/deps';
import { linkWithPassword, requestLink } from './company-sign-on/linking';
import { startSignOn } from './company-sign-on/start';
import type { UserDeps } from './users/common';

export type { CallbackResult } from './company-sign-on/callback';
export type { CompanySignOnConfig } from './company-sign-on/deps';

/**
 * Company sign-on (OpenID Connect, decision 315): one method per use case, each in its own file under
 * `services/company-sign-on/`; this class only wires the ports. Sessions end in the identity service's
 * one sign-in function (users/sign-in.ts `completeSignIn`).
 */
export class CompanySignOnService {
  private readonly d: CompanySignOnDeps;

  constructor(
    user: UserDeps,
    identities: CompanyIdentityStore,
    idp: IdentityProvider,
    company: CompanySignOnConfig,
  ) {
    this.d = { ...user, identities, idp, company };
  }

  get companyName(): string {
    return this.d.company.name;
  }

  /** Starts a sign-in at the provider (or, with `user`, a fresh one confirming a signature). */
  start(sourceIp: string, user?: UserRecord) {
    return startSignOn(this.d, sourceIp, user);
  }

  callback(search: string, binding: string, sourceIp: string): Promise<CallbackResult> {
    return companyCallback(this.d, search, binding, sourceIp);
  }

  linkWithPassword(linkTicket: string, password: string, sourceIp: string): Promise<CallbackResult> {
    return linkWithPassword(this.d, linkTicket, password, sourceIp);
  }

  requestLink(linkTicket: string): Promise<{ message: string }> {
    return requestLink(this.d, linkTicket);
  }

  decideLinks(
    admin: UserRecord,
    req: CompanyLinkDecision,
    sourceIp: string,
  ): Promise<Record<string, CompanyLinkOutcome>> {
    return decideCompanyLinks(this.d, admin, req, sourceIp);
  }
}
