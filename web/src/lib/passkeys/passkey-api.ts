import type { SignatureProof } from '@shared/api/contracts/packages';
import type { PasskeyProof } from '@shared/api/contracts/passkeys';
import { COMPANY_ERR } from '@shared/domain/company-sign-on';
import { PASSKEY_TEXT } from '@shared/domain/passkeys';
import { SIGNATURE_PASSWORD_WRONG } from '@shared/domain/signature-meanings';
import { callApi, quietly } from '@/lib/api-client/api-client';
import { promptPasskey } from './passkey-browser';

/**
 * Passkeys where any screen signs (decision 322): whether the signed-in person has passkeys and must sign
 * with one, and a signature's passkey proof (the server's challenge answered by the browser).
 */

export type { SignatureProof };

/** GET /passkeys, quietly: the caller's passkeys and whether their role signs only with one. */
export async function passkeyStatus() {
  const r = await callApi('listPasskeys', {}, quietly());
  return r.ok ? r.data : null;
}

/**
 * The passkey proof of a signature: the server's challenge (user verification required), answered by the
 * browser's passkey prompt. A refusal is the sentence to show in the dialog; `signal` cancels the prompt
 * (then `cancelled`: the person chose to stop, nothing to report).
 */
export async function passkeySignature(
  signal?: AbortSignal,
): Promise<{ ok: true; passkey: PasskeyProof } | { ok: false; message: string; cancelled?: true }> {
  const c = await callApi('passkeySignatureOptions', {}, { handle: 'all', loader: false });
  if (!c.ok) return { ok: false, message: c.error.errorMessage };
  const answer = await promptPasskey(c.data.publicKey, signal);
  if (!answer.ok) return answer;
  return {
    ok: true,
    passkey: { ceremonyId: c.data.ceremonyId, response: answer.response as PasskeyProof['response'] },
  };
}

/** The 403s of a deciding call that are about the signer's proof: the dialog stays open and says them. */
const PROOF_REFUSALS: ReadonlySet<string> = new Set([
  SIGNATURE_PASSWORD_WRONG,
  PASSKEY_TEXT.notVerified,
  PASSKEY_TEXT.noUserVerification,
  PASSKEY_TEXT.ceremonyGone,
  PASSKEY_TEXT.counterRegressed,
  PASSKEY_TEXT.requiredForSignature,
  PASSKEY_TEXT.noPasskey,
  // a fresh company sign-in's ticket that expired, was used or is not the signer's (decision 368)
  COMPANY_ERR.ticketInvalid,
]);
export const isProofRefusal = (error: { errorMessage: string }) => PROOF_REFUSALS.has(error.errorMessage);
