import type { UserRef } from '@shared/api/contracts/packages';
import {
  SIGNATURE_PASSWORD_REQUIRED,
  SIGNATURE_PASSWORD_WRONG,
  type SignatureAction,
  signatureRecord,
} from '@shared/domain/signature-meanings';
import { db } from './db';
import { body, fail } from './mock-http';
import { now } from './package-store';

/**
 * The mock's check of a deciding call's password (decision 141): the body is read once here. A missing
 * password answers 400, one other than the user's mock password (MOCK_PASSWORD for every seeded user, the
 * registered one for users registered in the mock) 403, with the API's texts. The mock has no throttle.
 */
export async function signedBody(
  request: Request,
  user: UserRef,
  action: SignatureAction,
): Promise<
  { error: Response } | { body: Record<string, unknown>; signature: ReturnType<typeof signatureRecord> }
> {
  const b = await body<Record<string, unknown>>(request);
  if (typeof b.password !== 'string' || b.password === '')
    return { error: fail(400, SIGNATURE_PASSWORD_REQUIRED) };
  if (db.passwords.get(user.id) !== b.password) return { error: fail(403, SIGNATURE_PASSWORD_WRONG) };
  return { body: b, signature: signatureRecord(action, user, now()) };
}
