import {
  COMPANY_SIGN_ON_CONTRACT,
  COMPANY_SIGN_ON_ROUTES,
} from '../../shared/api/route-table/company-sign-on';
import { assertNever } from '../../shared/domain/assert-never';
import { COMPANY_ERR } from '../../shared/domain/company-sign-on';
import { NotFoundError } from '../../shared/domain/errors';
import { companySignOnEnabled, loadCompanySignOn } from '../composition-company';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';
import type { CallbackResult } from '../services/company-sign-on-service';

/** route(id, fn) of the company sign-on rows (shared/api/route-table/company-sign-on.ts). */
export const route = routesOf(COMPANY_SIGN_ON_ROUTES, COMPANY_SIGN_ON_CONTRACT, authenticate);

/** The service, or 404 on a stage that names no identity provider. */
export async function companySignOn() {
  if (!companySignOnEnabled()) throw new NotFoundError(COMPANY_ERR.notConfigured);
  return loadCompanySignOn();
}

/** A callback's result as the API answers it: a session exactly as POST /user/login (user as JSON text). */
export function callbackBody(r: CallbackResult) {
  switch (r.outcome) {
    case 'SIGNED_IN':
      return {
        outcome: r.outcome,
        token: r.token,
        user: JSON.stringify(r.user),
        ...(r.mustChangePassword ? { mustChangePassword: true as const } : {}),
      };
    case 'SECOND_FACTOR':
      return {
        outcome: r.outcome,
        secondFactor: { ...r.secondFactor, publicKey: { ...r.secondFactor.publicKey } },
      };
    case 'LINK_REQUIRED':
    case 'REAUTHENTICATED':
      return r;
    default:
      return assertNever(r);
  }
}
