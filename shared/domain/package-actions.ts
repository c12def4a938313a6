/**
 * The words of the package lifecycle (`package-lifecycle.ts`, which re-exports them): what a person does
 * to a package, and who may do it. Their own module so the voting rounds and the approval policy name
 * them without importing the lifecycle table (no import cycle).
 */

/** What a person does to a package. */
export type PackageAction =
  | 'editHeader'
  | 'attachDcc'
  | 'notify'
  | 'approve'
  | 'reject'
  | 'sign'
  | 'rejectSigning'
  | 'deliver'
  | 'redeliver'
  | 'approveDelivery'
  | 'rejectDelivery'
  | 'delete'
  /** the generation worker finished the XML (docs/decisions/160-generation-off-the-request-path.md) */
  | 'generated'
  /** the generation worker gave up after its last retry: the package returns to where it was */
  | 'generationFailed'
  /** the person whose decision started a failed generation starts it again */
  | 'retryGeneration'
  /** the initiator or an admin hands a waiting person's place to another holder of the role (decision 351) */
  | 'reassign'
  /** the initiator or an admin takes a package out of approval, back to an editable draft (decision 351) */
  | 'withdraw';

/**
 * Who may do an action: a relationship to the package (its initiator, a chosen approver, its signer, a
 * chosen delivery approver) or a role (a release engineer delivers, an admin deletes).
 */
export type PackageActor =
  | 'initiator'
  | 'approver'
  | 'signer'
  | 'releaseEngineer'
  | 'deliveryApprover'
  | 'admin'
  /** the generation worker (no person) */
  | 'worker'
  /** the person whose decision started the generation (the last approver, or the signer) */
  | 'decider'
  /** the package's initiator, or an admin (reassign, withdraw: decision 351) */
  | 'owner';
