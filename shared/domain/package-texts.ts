/**
 * The package service's error texts and audit meanings, word for word, in one place: the services
 * (lambdas/services/packages/) answer with them and the browser mock (web/src/testing/mocks/) answers
 * with the same ones, so the two cannot drift apart. The integration tests assert them.
 */
export const PACKAGE_ERR = {
  packageNotFound: 'Package not found',
  resourceNotFound: 'Resource not found',
  dccNotFound: 'DCC not found',
  nameTaken: (name: string) => `Package with name '${name}' already exists`,
  headerAndSource:
    'Give either a header (header as code) or an earlier package to start from (fromPackageId), not both',
  wrongStage: (stage: string) =>
    `A ${stage.toLowerCase()} resource makes ${stage}_SIGNED or ${stage}_UNSIGNED packages`,
  /** `what` names the action: "edit the header", "attach a DCC", "notify approvers" */
  notInitiator: (what: string) => `Only the package's initiator can ${what}`,
  notDraft: (what: string) =>
    `The package was already sent for approval; its ${what.replace(/^edit /, '')} can no longer change`,
  headerNotJson: 'header is not valid JSON text',
  /** start from an earlier package */
  sourceNotFound: (id: string) => `The package to start from (${id}) was not found`,
  sourceOtherType: (sourceType: string, type: string) =>
    `A package of a ${type.toLowerCase()} cannot start from a package of a ${sourceType.toLowerCase()}: their headers differ`,
  draftOtherResource: 'This draft belongs to another resource',
  dccMissing: 'Attach a DCC to the package before notifying approvers',
  signerMissing: 'Choose a signer for a signed package',
  /** no one reviews their own bytes (decision 331): the uploader approves, signs and approves delivery of none */
  uploaderReviews: (name: string) =>
    `${name} uploaded the firmware of this package, so they cannot review it`,
  /** a package made before the uploader was pinned, whose resource is gone: its uploader cannot be kept out */
  uploaderUnknown:
    "This package's resource is gone, so who uploaded its firmware is unknown and cannot be kept out of its review; it cannot be sent on",
  signerUnexpected: 'Only signed packages have a signer',
  /** the approval policy keeps the signer out of the approvers (shared/domain/approval-policy.ts) */
  signerApproves: 'The signer cannot also approve this package: choose another signer or approver',
  /** `noun`: the voting round's noun ("package" or "delivery", shared/domain/package-lifecycle.ts) */
  notWaiting: (noun: string) => `The package is not waiting for ${noun} approval`,
  notVoter: (noun: string) => `You are not an approver of this ${noun}`,
  alreadyDecided: 'You have already decided on this package',
  /** the approval policy's order: `roles` (labels) approve before the caller */
  notYourTurn: (roles: string) => `You approve this package after ${roles}; wait until they have approved`,
  notSigner: 'You are not the signer of this package',
  notWaitingForSignature: 'The package is not waiting for a signature',
  releaseOnly: 'Only release packages are delivered',
  notDeliverable: 'The package must be approved (and signed, if signed) before delivery',
  /** decision 193: devices refuse an unsigned release package (docs/package-format.md §7 rule 1) */
  unsignedNotDeliverable:
    'An unsigned release package cannot be sent to delivery: devices refuse unsigned release packages. Create a RELEASE_SIGNED package instead',
  /** a plain deletion lost to a transition that put the package in flight */
  wentInFlight: (name: string) =>
    `Package '${name}' was sent on while it was being deleted and now waits for approval, signature or delivery; it was not deleted. Delete it again with your password and a reason.`,
  notGenerated:
    'The package has no generated file yet: it is generated when every approver has approved (and signed, if signed)',
} as const;

/**
 * What each audit event of a package means, in words a reviewer understands (the `meaning` of an audit
 * event; the history page shows them). Keys that are lifecycle actions are looked up by action.
 */
export const AUDIT_MEANING = {
  created: (type: string, resource: string) => `creates a ${type} package from ${resource}`,
  approve: 'approves the package: its content, header and DCC are fit for the next step',
  reject: 'rejects the package; it will not be generated',
  notify: 'sends the package for approval',
  fullyApprovedSigned: 'every approver approved; the package waits for its signer',
  generated: 'every approver approved; the XML package is generated',
  generating: 'every approver approved; the XML package is being generated',
  generationFailed: 'the XML package could not be generated; the package returns to the decision before',
  retryGeneration: 'starts the failed generation of the XML package again',
  sign: 'signs the package as the release engineer: it is the package approved for devices',
  rejectSigning: 'refuses to sign the package',
  deliver: 'starts delivery of the approved release package to devices',
  approveDelivery: 'approves delivery of the package to devices',
  rejectDelivery: 'rejects the delivery; the release engineer may re-deliver',
  delivered: 'every delivery approver approved; the package is delivered',
  editHeader: 'edits the package header',
  /** a package started from an earlier one (decision 240) */
  startedFrom: (name: string, status: string, fields: number, dcc: string | undefined) =>
    `starts the package from ${name} (${status}): ${fields} header value${fields === 1 ? '' : 's'} copied${dcc ? `, DCC ${dcc}` : ''}`,
  editDraft: 'changes the draft’s name, note or sign flag (step 1 again)',
  attachDcc: (deviceId: string, telemetryType: string) => `attaches DCC ${deviceId} (${telemetryType})`,
  delete: 'deletes the package and its generated files',
  deleteInFlight:
    'deletes the package while people wait on it, signed with the password and a reason; everyone waiting on it is told by mail',
} as const;
