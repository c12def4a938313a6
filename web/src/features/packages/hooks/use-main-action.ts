import type { Package, SignatureProof } from '@shared/api/contracts/packages';
import type { SignatureAction } from '@shared/domain/signature-meanings';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { showRefusal, showSuccess } from '@/lib/popup/popup-store';
import { session } from '@/lib/session/session-store';
import { approveDelivery, approvePackage, isWrongPassword, signPackage } from '../api/decisions';
import type { ChangesQuery } from '../components/changes-panel';
import type { MainAction } from '../utils/package-flow';

const CALLS = { approve: approvePackage, 'approve-delivery': approveDelivery, sign: signPackage } as const;
type SignedMainAction = keyof typeof CALLS;

/** The signed action of each main button (shared/domain/signature-meanings.ts). */
const SIGNED_ACTION: Record<SignedMainAction, SignatureAction> = {
  approve: 'approve',
  'approve-delivery': 'approveDelivery',
  sign: 'sign',
};

/**
 * The header view's main button (spec §2.9, §4.5, §4.6, DESIGN §2): approve, approve a delivery or sign,
 * then 'Approved successfully, waiting for other approvals.', 'Package is fully approved. Waiting for
 * signing.' or the download page; Continue of the delivery flow goes to choosing delivery approvers.
 * Each decision is signed first: the button opens the signature dialog (decision 141), whose password
 * goes with the call, with the digest of the changes the page showed (decision 266): when they changed
 * meanwhile the server refuses (409), the page stays and loads the comparison again.
 */
export function useMainAction(changes?: ChangesQuery) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  /** the decision waiting for its signature (the page shows the signature dialog for it) */
  const [signing, setSigning] = useState<{ action: SignedMainAction; pkg: Package } | null>(null);

  /** Deliver goes to choosing delivery approvers; every other action opens the signature dialog. */
  const run = (action: MainAction, pkg: Package) => {
    if (action === 'deliver') {
      navigate(paths.packages.notifyApprovers);
      return;
    }
    setSigning({ action, pkg });
  };

  /** The signed decision: a wrong password stays in the dialog (its words), anything else closes it. */
  const submit = async (proof: SignatureProof): Promise<string | null> => {
    if (!signing) return null;
    const { action, pkg } = signing;
    setBusy(true);
    const result = await CALLS[action](pkg.id, proof, changes?.data?.digest);
    setBusy(false);
    if (!result.ok && result.status === 403 && isWrongPassword(result.error))
      return result.error.errorMessage;
    setSigning(null);
    if (!result.ok && result.status === 409 && result.error.errorMessage === MSG.changesStale) {
      // the comparison changed since the page showed it: stay, show the new one
      changes?.reload();
      showRefusal(result.status, result.error.errorMessage);
      return null;
    }
    if (!result.ok) {
      // 403 / 409: not this user's decision, or the package moved on; the server says which
      showRefusal(result.status, result.error.errorMessage, { to: paths.home });
      return null;
    }
    const { outcome, link, pkg: next } = result.data;
    if (outcome === 'WAITING_FOR_APPROVALS') {
      showSuccess(MSG.approvedWaiting, { to: paths.home });
      return null;
    }
    if (outcome === 'WAITING_FOR_SIGNING') {
      showSuccess(MSG.approvedWaitingSigning, { to: paths.home });
      return null;
    }
    if (outcome === 'GENERATING') {
      // the download page shows "Generating…" with progress and becomes the spec's page once ready (decision 160)
      session.update({ currentPackage: next ?? { ...pkg, status: 'GENERATING' } });
      navigate(paths.packages.download);
      return null;
    }
    // GENERATED (linkToS3), DELIVERED or SIGNED (mLifePath): the download page
    const base = next ?? pkg;
    const updated: Package =
      outcome === 'GENERATED'
        ? { ...base, linkToS3: link ?? base.linkToS3 }
        : { ...base, mLifePath: link ?? base.mLifePath };
    session.update({ currentPackage: updated });
    navigate(paths.packages.download);
    return null;
  };

  return {
    run,
    busy,
    /** what the signature dialog shows, or null when none is open */
    signing: signing ? { action: SIGNED_ACTION[signing.action], pkg: signing.pkg } : null,
    submit,
    cancel: () => setSigning(null),
  };
}
