import {
  type SignatureAction,
  type SignatureMethod,
  signatureRecord,
} from '../../../shared/domain/signature-meanings';
import type { UserRecord } from '../../ports/user-repository';

/** Who did it, as an audit event records the actor. */
export const byActor = (u: Pick<UserRecord, 'id' | 'name' | 'userRole'>) => ({
  actorId: u.id,
  actorName: u.name,
  actorRole: u.userRole,
});

/**
 * The electronic signature of a decision, as its audit event records it under `details.signature`
 * (decision 141): action, meaning, printed name, role and UTC time.
 */
export const signatureDetails = (
  action: SignatureAction,
  signer: Pick<UserRecord, 'name' | 'userRole'>,
  signedAt: string,
  /** the package's type (a development package's approval means testing) */
  packageType?: string,
  /** how the signer was confirmed (decision 322) */
  method?: SignatureMethod,
) => ({ signature: signatureRecord(action, signer, signedAt, packageType, method) });

// What each audit event means: AUDIT_MEANING in shared/domain/package-texts.ts (the mock answers with it too).
