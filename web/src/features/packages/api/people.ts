import type { Package, SignatureProof } from '@shared/api/contracts/packages';
import type { Seat } from '@shared/domain/seats';
import { type ApiResult, callApi, readAnswer } from '@/lib/api-client/api-client';
import { packageOf } from './package-lists';

/** A person the package waits on who left their role (decision 351), with the sentence to show. */
export interface DepartureView {
  seat: Seat;
  userId: string;
  name: string;
  role: string;
  why: string;
  text: string;
}

/** GET /packages/{id}/details: whom the package waits on who left their role. */
export async function getDepartures(id: string, signal?: AbortSignal): Promise<ApiResult<DepartureView[]>> {
  const r = await callApi('packageDetails', { params: { id } }, { signal });
  return readAnswer(r, (d) => d.departures ?? []);
}

/** 400 (a bad choice), 403 (a wrong password, or not the owner) and 409 (moved on) are shown by the caller. */
const HANDLED = [400, 403, 409] as const;

/** POST /packages/{id}/reassign: the place of `from` goes to `to`, signed with a reason. */
export async function reassignPlace(
  id: string,
  body: { seat: Seat; from: string; to: string; reason: string },
  proof: SignatureProof,
): Promise<ApiResult<{ message: string; pkg: Package | null }>> {
  const r = await callApi(
    'reassignPackage',
    { params: { id }, body: { ...body, ...proof } },
    { handle: HANDLED },
  );
  return readAnswer(r, (d) => ({ message: d.message, pkg: packageOf(d) }), HANDLED);
}

/** POST /packages/{id}/withdraw: back to an editable draft, signed with a reason. */
export async function withdrawPackage(
  id: string,
  reason: string,
  proof: SignatureProof,
): Promise<ApiResult<{ message: string; pkg: Package | null }>> {
  const r = await callApi(
    'withdrawPackage',
    { params: { id }, body: { reason, ...proof } },
    { handle: HANDLED },
  );
  return readAnswer(r, (d) => ({ message: d.message, pkg: packageOf(d) }), HANDLED);
}
