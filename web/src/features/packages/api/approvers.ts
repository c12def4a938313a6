import type { NotifyRequest, Package, SignatureProof, UserRef } from '@shared/api/contracts/packages';
import { approverCandidatesSchema, userRefSchema } from '@shared/api/contracts/records';
import type { Role } from '@shared/domain/roles';
import { z } from 'zod';
import { type ApiResult, callApi, parseJsonText, readAnswer } from '@/lib/api-client/api-client';
import { packageOf } from './package-lists';

export interface ApproverCandidates {
  /** users per role (the initiator, the uploader, and once the package left DRAFT the caller, are left out) */
  approvers: Partial<Record<Role, UserRef[]>>;
  signers: UserRef[];
  /** who uploaded the package's resource: never offered (decision 331); absent from older servers */
  uploader?: { id: string; name: string };
}

/** GET /packages/{id}/approvers?signers=…: both lists are JSON text (spec §7). */
export async function getApprovers(
  id: string,
  signers: boolean,
  signal?: AbortSignal,
): Promise<ApiResult<ApproverCandidates>> {
  const result = await callApi(
    'listApprovers',
    { params: { id }, query: { signers: signers ? 'true' : 'false' } },
    { signal },
  );
  return readAnswer(result, (d) => ({
    approvers: parseJsonText(d.approvers, approverCandidatesSchema, {}),
    signers: parseJsonText(d.signers, z.array(userRefSchema), []),
    ...(d.uploader ? { uploader: d.uploader } : {}),
  }));
}

/**
 * POST /packages/{id}/notify-approvers (creation) or /delivery/packages/{id}/notify-approvers (deliver,
 * re-deliver). A 400 or 409 says what the server refused; the caller shows it.
 */
export async function notifyApprovers(
  id: string,
  /** a delivery carries the signer's password (decision 141) */
  body: NotifyRequest & Partial<SignatureProof>,
  delivery: boolean,
): Promise<ApiResult<{ message?: string; pkg: Package | null }>> {
  const result = await callApi(
    delivery ? 'notifyDeliveryApprovers' : 'notifyApprovers',
    { params: { id }, body },
    { handle: [400, 403, 409] },
  );
  return readAnswer(result, (d) => ({ message: d.message, pkg: packageOf(d) }), [400, 403, 409]);
}
