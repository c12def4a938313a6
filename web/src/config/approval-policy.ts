import { approvalPolicyNamed } from '@shared/domain/approval-policies';
import { APPROVAL_POLICY, type ApprovalPolicy } from '@shared/domain/approval-policy';

/**
 * The approval policy the API runs, as config.json names it (decision 338): the SPA shows the same turns
 * the API enforces. Until config.json is read (or without one: Vite's dev server, mock mode) the policy
 * of the bundle's own defaults applies (APPROVAL_POLICY: `spec`, or the test run's in jsdom).
 */
let current: ApprovalPolicy = APPROVAL_POLICY;

export function approvalPolicy(): ApprovalPolicy {
  return current;
}

/** Selects the policy config.json names; an unknown name keeps the current one and says why. */
export function selectApprovalPolicy(name: unknown): void {
  if (typeof name !== 'string' || name === '') return;
  try {
    current = approvalPolicyNamed(name);
  } catch (e) {
    console.warn(`config.json: ${(e as Error).message}`);
  }
}

/** Puts a policy back (tests that select one restore what was before). */
export function restoreApprovalPolicy(policy: ApprovalPolicy): void {
  current = policy;
}
