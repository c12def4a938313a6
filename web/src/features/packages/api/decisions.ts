import type { ApproveOutcome, Package } from '@shared/api/contracts/packages';
import { type ApiResult, api } from '@/lib/api-client/api-client';
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

async function decide(path: string): Promise<ApiResult<DecisionAnswer>> {
  const result = await api.post<{
    outcome?: DecisionAnswer['outcome'];
    message?: string;
    generatedXmlS3Link?: string;
    mLifePath?: string;
    package?: unknown;
  }>(path, undefined, { handle: HANDLED });
  if (!result.ok) return result;
  const d = result.data;
  // DESIGN §2: the body names the outcome; 202 always means "waiting for other approvals"
  const outcome = d.outcome ?? (result.status === 202 ? 'WAITING_FOR_APPROVALS' : 'GENERATED');
  return {
    ...result,
    data: { outcome, message: d.message, link: d.generatedXmlS3Link ?? d.mLifePath, pkg: packageOf(d) },
  };
}

const id$ = (id: string) => encodeURIComponent(id);

/** POST /packages/{id}/approve: WAITING_FOR_APPROVALS (202), WAITING_FOR_SIGNING or GENERATED. */
export const approvePackage = (id: string) => decide(`/packages/${id$(id)}/approve`);

/** POST /delivery/packages/{id}/approve: WAITING_FOR_APPROVALS (202) or DELIVERED. */
export const approveDelivery = (id: string) => decide(`/delivery/packages/${id$(id)}/approve`);

/** POST /packages/{id}/generate-signed: SIGNED with mLifePath. */
export const signPackage = (id: string) => decide(`/packages/${id$(id)}/generate-signed`);

const REJECT_PATHS: Record<RejectKind, (id: string) => string> = {
  approval: (id) => `/packages/${id$(id)}/reject`,
  delivery: (id) => `/delivery/packages/${id$(id)}/reject`,
  signing: (id) => `/packages/${id$(id)}/reject-signing`,
};

/** The three reject calls of spec §4.6, each with { 'rejection-reason' }. */
export async function rejectPackage(
  kind: RejectKind,
  id: string,
  reason: string,
): Promise<ApiResult<{ message?: string }>> {
  return api.post<{ message?: string }>(
    REJECT_PATHS[kind](id),
    { 'rejection-reason': reason },
    { handle: [400, ...HANDLED] },
  );
}
