import type { Package } from '@shared/api/contracts/packages';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { showRefusal, showSuccess } from '@/lib/popup/popup-store';
import { session } from '@/lib/session/session-store';
import { approveDelivery, approvePackage, signPackage } from '../api/decisions';
import type { MainAction } from '../utils/package-flow';

const CALLS = { approve: approvePackage, 'approve-delivery': approveDelivery, sign: signPackage } as const;

/**
 * The header view's main button (spec §2.9, §4.5, §4.6, DESIGN §2): approve, approve a delivery or sign,
 * then 'Approved successfully, waiting for other approvals.', 'Package is fully approved. Waiting for
 * signing.' or the download page; Continue of the delivery flow goes to choosing delivery approvers.
 */
export function useMainAction() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const run = async (action: MainAction, pkg: Package) => {
    if (action === 'deliver') {
      navigate(paths.packages.notifyApprovers);
      return;
    }
    setBusy(true);
    const result = await CALLS[action](pkg.id);
    setBusy(false);
    if (!result.ok) {
      // 403 / 409: not this user's decision, or the package moved on; the server says which
      showRefusal(result.status, result.error.errorMessage, { to: paths.home });
      return;
    }
    const { outcome, link, pkg: next } = result.data;
    if (outcome === 'WAITING_FOR_APPROVALS') {
      showSuccess(MSG.approvedWaiting, { to: paths.home });
      return;
    }
    if (outcome === 'WAITING_FOR_SIGNING') {
      showSuccess(MSG.approvedWaitingSigning, { to: paths.home });
      return;
    }
    if (outcome === 'GENERATING') {
      // the download page shows "Generating…" with progress and becomes the spec's page once ready (decision 160)
      session.update({ currentPackage: next ?? { ...pkg, status: 'GENERATING' } });
      navigate(paths.packages.download);
      return;
    }
    // GENERATED (linkToS3), DELIVERED or SIGNED (mLifePath): the download page
    const base = next ?? pkg;
    const updated: Package =
      outcome === 'GENERATED'
        ? { ...base, linkToS3: link ?? base.linkToS3 }
        : { ...base, mLifePath: link ?? base.mLifePath };
    session.update({ currentPackage: updated });
    navigate(paths.packages.download);
  };

  return { run, busy };
}
