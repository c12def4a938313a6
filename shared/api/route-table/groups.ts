import { APPROVAL_POLICY } from '../../domain/approval-policy';
import { NON_ADMIN_ROLES, type Role, UPLOADER_ROLES } from '../../domain/roles';

/** Role lists and table sets the rows share. */
export const ADMIN: readonly Role[] = ['ADMIN'];
export const NON_ADMIN: readonly Role[] = NON_ADMIN_ROLES;
/** who may sign and who may deliver: the approval policy's roles (shared/domain/approval-policy.ts) */
export const SIGNER: readonly Role[] = [APPROVAL_POLICY.signer.role];
export const DELIVERER: readonly Role[] = [APPROVAL_POLICY.deliverer.role];
export const UPLOADERS: readonly Role[] = UPLOADER_ROLES;

export const USERS = ['users'] as const;
/** identity routes that change an account also append to the audit trail */
export const USERS_AUDITED = ['users', 'audit'] as const;
/** identity routes that change accounts: users and the audit trail (`writes`: shared/api/routes.ts) */
export const CHANGES_ACCOUNTS = { tables: USERS_AUDITED, writes: USERS_AUDITED } as const;
export const PKG_READ = ['users', 'packages'] as const;
export const PKG_WRITE = ['users', 'packages', 'audit'] as const;
/** workflow steps that mail commit the mails to the outbox with the state change (decision 095) */
export const PKG_MAIL = ['users', 'packages', 'audit', 'outbox'] as const;
/**
 * Approving (the last approval starts the generation), signing and retrying a failed generation: they
 * check the resource and the DCC, commit GENERATING and invoke the generation worker of the package's
 * stage (generateArtefact for RELEASE, generateDevArtefact for DEV: each holds its stage's key alone,
 * decision 295); the worker alone reads the resource, writes the artefact and signs (shared/api/workers.ts,
 * decision 160).
 */
export const PKG_DECIDE = {
  tables: ['users', 'packages', 'resources', 'dcc', 'audit', 'outbox'],
  // the resource and the DCC are read, never changed (decision 205)
  writes: ['packages', 'audit', 'outbox'],
  invoke: ['generateArtefact', 'generateDevArtefact'],
} as const;

/**
 * A decision is an electronic signature (decision 141): its password check counts a wrong password as a
 * failed sign-in, and those counters live in the users table, so the rows that take a signature may write
 * users too (the local IAM check refused it with a 500 otherwise).
 */
export const SIGNED_MAIL = { tables: PKG_MAIL, writes: PKG_MAIL } as const;
/**
 * Choosing approvers (notify, deliver, re-deliver) also reads the package's resource: a package made
 * before its uploader was pinned learns it there (decision 331). The resource is never changed.
 */
export const SIGNED_CHOICE = { tables: [...PKG_MAIL, 'resources'], writes: PKG_MAIL } as const;
/** The candidates of a package's approvers: users and packages, and the resource for its uploader (decision 331). */
export const PKG_CHOICE_READ = [...PKG_READ, 'resources'] as const;
export const SIGNED_DECIDE = { ...PKG_DECIDE, writes: [...PKG_DECIDE.writes, 'users'] } as const;
