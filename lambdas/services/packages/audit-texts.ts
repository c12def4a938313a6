import type { UserRecord } from '../../ports/user-repository';

/** Who did it, as an audit event records the actor. */
export const byActor = (u: Pick<UserRecord, 'id' | 'name' | 'userRole'>) => ({
  actorId: u.id,
  actorName: u.name,
  actorRole: u.userRole,
});

/**
 * What each audit event of a package or DCC means, in words a reviewer understands (the `meaning` of
 * an audit event; the history page shows them).
 */
export const AUDIT_MEANING = {
  approve: 'approves the package: its content, header and DCC are fit for the next step',
  reject: 'rejects the package; it will not be generated',
  notify: 'sends the package for approval',
  fullyApprovedSigned: 'every approver approved; the package waits for its signer',
  generated: 'every approver approved; the XML package is generated',
  sign: 'signs the package as the release engineer: it is the package approved for devices',
  rejectSigning: 'refuses to sign the package',
  deliver: 'starts delivery of the approved release package to devices',
  approveDelivery: 'approves delivery of the package to devices',
  rejectDelivery: 'rejects the delivery; the release engineer may re-deliver',
  delivered: 'every delivery approver approved; the package is delivered',
  editHeader: 'edits the package header',
  delete: 'deletes the package and its generated files',
} as const;
