import type { ApproveOutcome, Package } from '@shared/api/contracts/packages';
import { type ApiResult, callApi } from '@/lib/api-client/api-client';
import type { RejectKind } from '../utils/package-flow';
import { packageOf } from './package-lists';

export interface DecisionAnswer {
  outcome: ApproveOutcome | 'SIGNED';
  message?: string;
  /** the XML artefact (approve: generatedXmlS3Link; delivery approve and sign: mLifePath) */
  link?: string;
  pkg: Package | null;
}

/** 403 (not yours) and 409 (the package moved on) are shown by the caller with the server's words. */
const HANDLED = [403, 404, 409] as const;

async function decide(
  id: 'approvePackage' | 'approveDelivery' | 'signPackage',
  packageId: string,
): Promise<ApiResult<DecisionAnswer>> {
  const result = await callApi(id, { params: { id: packageId } }, { handle: HANDLED });
  if (!result.ok) return result;
  const d = result.data;
  // DESIGN §2: the body names the outcome (202 without one: "waiting for other approvals"; 202 GENERATING:
  // the XML is generated off the request path, decision 160)
  const outcome = d.outcome ?? (result.status === 202 ? 'WAITING_FOR_APPROVALS' : 'GENERATED');
  return {
    ...result,
    data: { outcome, message: d.message, link: d.generatedXmlS3Link ?? d.mLifePath, pkg: packageOf(d) },
  };
}

/** POST /packages/{id}/approve: WAITING_FOR_APPROVALS (202), WAITING_FOR_SIGNING or GENERATED. */
export const approvePackage = (id: string) => decide('approvePackage', id);

/** POST /delivery/packages/{id}/approve: WAITING_FOR_APPROVALS (202) or DELIVERED. */
export const approveDelivery = (id: string) => decide('approveDelivery', id);

/** POST /packages/{id}/generate-signed: SIGNED with mLifePath. */
export const signPackage = (id: string) => decide('signPackage', id);

const REJECT_ROUTES = {
  approval: 'rejectPackage',
  delivery: 'rejectDelivery',
  signing: 'rejectSigning',
} as const satisfies Record<RejectKind, string>;

/** The three reject calls of spec §4.6, each with { 'rejection-reason' }. */
export async function rejectPackage(
  kind: RejectKind,
  id: string,
  reason: string,
): Promise<ApiResult<{ message?: string }>> {
  return callApi(
    REJECT_ROUTES[kind],
    { params: { id }, body: { 'rejection-reason': reason } },
    { handle: [400, ...HANDLED] },
  );
}
