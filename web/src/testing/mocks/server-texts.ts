import type { VotingRound } from '@shared/domain/package-lifecycle';

/**
 * The package service's error texts and audit meanings that the mock answers with. They live in
 * lambdas/services (which the web app must not import), so the mock keeps them here, once, word for
 * word; the texts shared with the screens come from shared/messages.ts. When the service's texts move
 * to shared/, this file goes (see the report of issue 15).
 */
export const PACKAGE_ERR = {
  packageNotFound: 'Package not found',
  resourceNotFound: 'Resource not found',
  dccNotFound: 'DCC not found',
  nameTaken: (name: string) => `Package with name '${name}' already exists`,
  wrongStage: (stage: string) =>
    `A ${stage.toLowerCase()} resource makes ${stage}_SIGNED or ${stage}_UNSIGNED packages`,
  notInitiator: (what: string) => `Only the package's initiator can ${what}`,
  notDraft: (what: string) =>
    `The package was already sent for approval; its ${what.replace(/^edit /, '')} can no longer change`,
  headerNotJson: 'header is not valid JSON text',
  dccMissing: 'Attach a DCC to the package before notifying approvers',
  signerMissing: 'Choose a signer for a signed package',
  signerUnexpected: 'Only signed packages have a signer',
  notWaiting: (round: VotingRound) => `The package is not waiting for ${round.noun} approval`,
  notVoter: (round: VotingRound) => `You are not an approver of this ${round.noun}`,
  alreadyDecided: 'You have already decided on this package',
  notSigner: 'You are not the signer of this package',
  notWaitingForSignature: 'The package is not waiting for a signature',
  releaseOnly: 'Only release packages are delivered',
  notDeliverable: 'The package must be approved (and signed, if signed) before delivery',
  notGenerated:
    'The package has no generated file yet: it is generated when every approver has approved (and signed, if signed)',
} as const;

/** What each audit event of a package means (the history page shows them). */
export const AUDIT_MEANING = {
  created: (type: string, resource: string) => `creates a ${type} package from ${resource}`,
  notify: 'sends the package for approval',
  approve: 'approves the package: its content, header and DCC are fit for the next step',
  reject: 'rejects the package; it will not be generated',
  generated: 'every approver approved; the XML package is generated',
  sign: 'signs the package as the release engineer: it is the package approved for devices',
  rejectSigning: 'refuses to sign the package',
  deliver: 'starts delivery of the approved release package to devices',
  deliveryApprove: 'approves delivery of the package to devices',
  rejectDelivery: 'rejects the delivery; the release engineer may re-deliver',
  delivered: 'every delivery approver approved; the package is delivered',
  editHeader: 'edits the package header',
  attachDcc: (deviceId: string, telemetryType: string) => `attaches DCC ${deviceId} (${telemetryType})`,
} as const;
