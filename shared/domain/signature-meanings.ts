import { roleLabel } from './roles';

/**
 * Electronic signatures of package decisions (21 CFR Part 11 §11.50, §11.200; decision 141): every
 * deciding call carries the signer's password, and each records what the signature means, in one sentence
 * per action. The server (audit trail, XML approval record), the SPA's confirm dialog and the browser mock
 * all take the sentences from here, so what the signer reads is what is recorded.
 */
export const SIGNATURE_ACTIONS = [
  'approve',
  'reject',
  'sign',
  'rejectSigning',
  'deliver',
  'redeliver',
  'approveDelivery',
  'rejectDelivery',
] as const;
export type SignatureAction = (typeof SIGNATURE_ACTIONS)[number];

/** What each signature means, word for word (docs/package-format.md lists them). */
export const SIGNATURE_MEANINGS: Readonly<Record<SignatureAction, string>> = {
  approve: 'I approve this package for release: I reviewed its content, header and DCC',
  reject: 'I reject this package: its content, header or DCC is not fit for release, for the reason I give',
  sign: 'I sign this package for release: it is the package that was approved, and I authorise its delivery to devices',
  rejectSigning: 'I refuse to sign this package, for the reason I give; it will not be released',
  deliver:
    'I send this signed and approved release package to its delivery approvers for delivery to devices',
  redeliver:
    'I send this release package again to delivery approvers for delivery to devices, after its delivery was rejected',
  approveDelivery: 'I approve delivery of this package to devices',
  rejectDelivery: 'I reject delivery of this package to devices, for the reason I give',
};

/**
 * A development package (decision 250) is approved for testing on development devices, never for release;
 * its approvers sign these sentences instead (`signatureMeaning`), and its XML records them.
 */
export const DEVELOPMENT_MEANINGS: Readonly<Partial<Record<SignatureAction, string>>> = {
  approve:
    'I approve this development package for testing on development devices, not for release: I reviewed its content, header and DCC',
  reject:
    'I reject this development package: its content, header or DCC is not fit for testing, for the reason I give',
  sign: 'I sign this development package for testing on development devices, not for release: it is the package that was approved',
};

/** A development package type (DEV_SIGNED, DEV_UNSIGNED). */
export const isDevelopmentPackage = (packageType?: string): boolean =>
  packageType?.startsWith('DEV_') === true;

/** What a signature on a package of `packageType` means (a development package's approval is not a release's). */
export function signatureMeaning(action: SignatureAction, packageType?: string): string {
  return (
    (isDevelopmentPackage(packageType) ? DEVELOPMENT_MEANINGS[action] : undefined) ??
    SIGNATURE_MEANINGS[action]
  );
}

/** Short names of the actions, for the dialog's title and button. */
export const SIGNATURE_ACTION_LABELS: Readonly<Record<SignatureAction, string>> = {
  approve: 'Approve',
  reject: 'Reject',
  sign: 'Sign',
  rejectSigning: 'Reject signing',
  deliver: 'Deliver',
  redeliver: 'Re-deliver',
  approveDelivery: 'Approve delivery',
  rejectDelivery: 'Reject delivery',
};

/** The meanings the XML's approval record (approvals) and signature carry. */
export const XML_APPROVAL_MEANING = SIGNATURE_MEANINGS.approve;
/** The approval meaning the XML of a development package carries. */
export const XML_DEV_APPROVAL_MEANING = DEVELOPMENT_MEANINGS.approve as string;
export const XML_DEV_SIGNATURE_MEANING = DEVELOPMENT_MEANINGS.sign as string;
export const XML_SIGNATURE_MEANING = SIGNATURE_MEANINGS.sign;

/** Missing or empty `password` on a deciding call (400). */
export const SIGNATURE_PASSWORD_REQUIRED = 'password is required: enter your password to sign this decision';
/** A wrong password on a deciding call (403, never 401: the SPA treats 401 as the end of the session). */
export const SIGNATURE_PASSWORD_WRONG =
  'The password is incorrect; your decision was not recorded. Enter the password you sign in with.';

/**
 * An admin's deletion of a package in flight (decision 196): an electronic signature too, with
 * the admin's password and reason. It is not a package decision (no dialog of the package pages, nothing in
 * the XML), so it is not one of SIGNATURE_ACTIONS; the audit trail records it the same way.
 */
export const DELETE_IN_FLIGHT_MEANING =
  'I delete this package while people wait on it for approval, signature or delivery: the work on it stops, for the reason I give';
/**
 * Change of people (decision 351): the initiator's or an admin's signed reassignment of a waiting person's
 * place, and the withdrawal of a package to a draft. Not decisions on the package's content (nothing of
 * them goes into the XML), so not SIGNATURE_ACTIONS; the dialog and the audit trail take these sentences.
 */
export const REASSIGN_MEANING =
  'I give this place to another holder of its role: the person chosen before no longer decides on this package, for the reason I give';
export const WITHDRAW_MEANING =
  'I withdraw this package from approval to an editable draft: every decision of this round is cleared, for the reason I give';
export type PeopleChangeAction = 'reassign' | 'withdraw';

/** A signed deletion without a reason (400). */
export const DELETION_REASON_REQUIRED = 'A reason is required: say why the package is deleted';

/** One signature as the audit trail records it (`details.signature` of the decision's audit event). */
export interface SignatureRecord {
  action: SignatureAction | 'deletePackage' | PeopleChangeAction;
  meaning: string;
  /** the signer's printed name, as their account holds it at the signature */
  printedName: string;
  /** role code and its printed label */
  role: string;
  roleLabel: string;
  /** ISO 8601, UTC */
  signedAt: string;
  /** how the signer was identified at this signature, in the same call (decision 322) */
  authenticatedBy: SignatureMethod;
}

/**
 * How a signer proved who they are at a signature: the password re-entered, a passkey with user
 * verification, or a fresh sign-in at the company's identity provider.
 */
export type SignatureMethod = 'password' | 'passkey' | 'company';
export const SIGNATURE_METHODS: readonly SignatureMethod[] = ['password', 'passkey', 'company'];
/** How the history names each method. */
export const SIGNATURE_METHOD_LABELS: Readonly<Record<SignatureMethod, string>> = {
  password: 'password',
  passkey: 'passkey (user verified)',
  company: 'fresh company sign-in',
};

const OTHER_MEANINGS = {
  deletePackage: DELETE_IN_FLIGHT_MEANING,
  reassign: REASSIGN_MEANING,
  withdraw: WITHDRAW_MEANING,
} as const;

export function signatureRecord(
  action: SignatureAction | 'deletePackage' | PeopleChangeAction,
  signer: { name: string; userRole: string },
  signedAt: string,
  /** the package's type: a development package's approval means testing, not release */
  packageType?: string,
  authenticatedBy: SignatureMethod = 'password',
): SignatureRecord {
  return {
    action,
    meaning:
      OTHER_MEANINGS[action as keyof typeof OTHER_MEANINGS] ??
      signatureMeaning(action as SignatureAction, packageType),
    printedName: signer.name,
    role: signer.userRole,
    roleLabel: roleLabel(signer.userRole),
    signedAt,
    authenticatedBy,
  };
}
