import type { ApproveOutcome, Package, SignatureProof } from '@shared/api/contracts/packages';
import { type ApiResult, callApi, readAnswer } from '@/lib/api-client/api-client';
import { isProofRefusal } from '@/lib/passkeys/passkey-api';
import type { RejectKind } from '../utils/package-flow';
import { packageOf } from './package-lists';

export interface DecisionAnswer {
  outcome: ApproveOutcome | 'SIGNED';
  message?: string;
  /** the XML artefact (approve: generatedXmlS3Link; delivery approve and sign: mLifePath) */
  link?: string;
  pkg: Package | null;
}

/**
 * 403 (a wrong password, or not yours), 404 and 409 (the package moved on) are shown by the caller with
 * the server's words. Every decision carries the signer's password (decision 141).
 */
const HANDLED = [403, 404, 409] as const;

/**
 * A 403 of a deciding call that is about the signer's proof (a wrong password, a passkey that did not
 * verify: the dialog keeps it), not about the caller's right.
 */
export const isWrongPassword = isProofRefusal;

async function decide(
  id: 'approvePackage' | 'approveDelivery' | 'signPackage',
  packageId: string,
  proof: SignatureProof,
  changesSeen?: string,
): Promise<ApiResult<DecisionAnswer>> {
  const result = await callApi(
    id,
    { params: { id: packageId }, body: { ...proof, ...(changesSeen ? { changesSeen } : {}) } },
    { handle: HANDLED },
  );
  // DESIGN §2: the body names the outcome (202 without one: "waiting for other approvals"; 202 GENERATING:
  // the XML is generated off the request path, decision 160)
  return readAnswer(
    result,
    (d) => ({
      outcome: d.outcome ?? (result.status === 202 ? 'WAITING_FOR_APPROVALS' : 'GENERATED'),
      message: d.message,
      link: d.generatedXmlS3Link ?? d.mLifePath,
      pkg: packageOf(d),
    }),
    HANDLED,
  );
}

/**
 * POST /packages/{id}/approve: WAITING_FOR_APPROVALS (202), WAITING_FOR_SIGNING or GENERATED. `changesSeen`:
 * the digest of the changes the page showed (decision 266; a stale one is refused with 409).
 */
export const approvePackage = (id: string, proof: SignatureProof, changesSeen?: string) =>
  decide('approvePackage', id, proof, changesSeen);

/** POST /delivery/packages/{id}/approve: WAITING_FOR_APPROVALS (202) or DELIVERED. */
export const approveDelivery = (id: string, proof: SignatureProof, changesSeen?: string) =>
  decide('approveDelivery', id, proof, changesSeen);

/** POST /packages/{id}/generate-signed: SIGNED with mLifePath. */
export const signPackage = (id: string, proof: SignatureProof, changesSeen?: string) =>
  decide('signPackage', id, proof, changesSeen);

const REJECT_ROUTES = {
  approval: 'rejectPackage',
  delivery: 'rejectDelivery',
  signing: 'rejectSigning',
} as const satisfies Record<RejectKind, string>;

/** The three reject calls of spec §4.6, each with { 'rejection-reason', password }. */
export async function rejectPackage(
  kind: RejectKind,
  id: string,
  reason: string,
  proof: SignatureProof,
  changesSeen?: string,
): Promise<ApiResult<{ message?: string }>> {
  return callApi(
    REJECT_ROUTES[kind],
    {
      params: { id },
      body: { 'rejection-reason': reason, ...proof, ...(changesSeen ? { changesSeen } : {}) },
    },
    { handle: [400, ...HANDLED] },
  );
}
