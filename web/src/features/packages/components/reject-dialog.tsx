import type { Package, SignatureProof } from '@shared/api/contracts/packages';
import type { SignatureAction } from '@shared/domain/signature-meanings';
import { MSG } from '@shared/messages';
import { SignatureDialog } from '@/components/ui/signature-dialog';
import { paths } from '@/config/paths';
import { showRefusal, showSuccess } from '@/lib/popup/popup-store';
import { isWrongPassword, rejectPackage } from '../api/decisions';
import type { RejectKind } from '../utils/package-flow';
import { type ChangesQuery, changesSeenText } from './changes-panel';

/** The signed action of each reject call. */
const ACTION: Record<RejectKind, SignatureAction> = {
  approval: 'reject',
  signing: 'rejectSigning',
  delivery: 'rejectDelivery',
};

/**
 * Spec §2.9, §4.6, §5: 'Confirm Package Rejection' asks for a reason; Reject is inactive until there is
 * one. It is signed like every decision (the signature dialog: meaning, name and role, password). Success
 * says 'Your rejection was confirmed' and goes to /home; a wrong password (403) is said in the dialog; a
 * package that moved on (409) or another refusal shows the server's words. On a review page the dialog
 * states the comparison seen and sends its digest (decision 266): a stale one (409) keeps the page and
 * loads the comparison again.
 */
export function RejectDialog({
  pkg,
  kind,
  onCancel,
  changes,
}: {
  pkg: Pick<Package, 'id' | 'name' | 'type' | 'resourceName' | 'resourceFile'>;
  kind: RejectKind;
  /** closes the dialog (Cancel, Escape, and once the server answered: the popup takes over) */
  onCancel: () => void;
  /** the changes since the last approved package the page shows (review pages) */
  changes?: ChangesQuery;
}) {
  const submit = async (proof: SignatureProof, reason: string) => {
    const result = await rejectPackage(kind, pkg.id, reason, proof, changes?.data?.digest);
    if (!result.ok && result.status === 403 && isWrongPassword(result.error))
      return result.error.errorMessage;
    onCancel();
    if (!result.ok && result.status === 409 && result.error.errorMessage === MSG.changesStale) {
      changes?.reload();
      showRefusal(result.status, result.error.errorMessage);
      return null;
    }
    if (result.ok) {
      showSuccess(result.data.message || MSG.rejectionConfirmed, { to: paths.home });
      return null;
    }
    if (result.status === 400) {
      showRefusal(result.status, result.error.errorMessage);
      return null;
    }
    showRefusal(result.status, result.error.errorMessage, { to: paths.home });
    return null;
  };

  return (
    <SignatureDialog
      pkg={pkg}
      action={ACTION[kind]}
      title={MSG.confirmRejectionTitle}
      intro={
        <>
          You reject <strong>{pkg.name}</strong>. The initiator is told, with your reason.
        </>
      }
      actionLabel={MSG.reject}
      changesSeen={changes ? changesSeenText(changes) : undefined}
      onCancel={onCancel}
      onSubmit={submit}
    />
  );
}
