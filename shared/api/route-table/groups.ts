import { NON_ADMIN_ROLES, type Role, UPLOADER_ROLES } from '../../domain/roles';

/** Role lists and table sets the rows share. */
export const ADMIN: readonly Role[] = ['ADMIN'];
export const NON_ADMIN: readonly Role[] = NON_ADMIN_ROLES;
export const RELEASE_ENGINEER: readonly Role[] = ['SW_FW_RELEASE_ENGINEER'];
export const UPLOADERS: readonly Role[] = UPLOADER_ROLES;

export const USERS = ['users'] as const;
/** identity routes that change an account also append to the audit trail */
export const USERS_AUDITED = ['users', 'audit'] as const;
export const PKG_READ = ['users', 'packages'] as const;
export const PKG_WRITE = ['users', 'packages', 'audit'] as const;
/** workflow steps that mail commit the mails to the outbox with the state change (decision 095) */
export const PKG_MAIL = ['users', 'packages', 'audit', 'outbox'] as const;
/**
 * Approving (the last approval generates the package) and signing: read the resource, write the artefact;
 * delete: a sign that lost its race to another sign or a reject-signing removes its own artefact.
 */
export const PKG_ARTEFACTS = {
  tables: ['users', 'packages', 'resources', 'dcc', 'audit', 'outbox'],
  buckets: { resources: ['read'], artefacts: ['write', 'delete'] },
} as const;
