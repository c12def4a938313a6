import { Alert, Button } from '@aws-amplify/ui-react';
import type { Package } from '@shared/api/contracts/packages';
import { assertNever } from '@shared/domain/assert-never';
import { isEditable } from '@shared/domain/package-lifecycle';
import { isDeliverableType } from '@shared/domain/package-rules';
import { MSG } from '@shared/messages';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ActionBar, ActionBarSpacer } from '@/components/ui/action-bar';
import { PackageStateBadge } from '@/components/ui/package-state';
import { ProgressBar } from '@/components/ui/progress-bar';
import { paths } from '@/config/paths';
import { type SessionState, session, useSession } from '@/lib/session/session-store';
import { turnSentence, waitsFirstFor } from '@/lib/turns';
import { usePackageDownload } from '../hooks/use-package-download';
import {
  canDeliver,
  creationTitle,
  isGenerated,
  listPathOf,
  rejectKind,
  rowClickTarget,
} from '../utils/package-flow';
import { ApprovalRecord } from './approval-record';
import { ApproverMarks } from './approver-marks';
import { ChangesPanel, usePackageChanges } from './changes-panel';
import { GenerationStatus, showsGeneration } from './generation-status';
import { PackageFields } from './package-fields';
import { NoPackage, PackagePage, PackageSection } from './package-page';
import { Departures, WithdrawButton } from './people-change';
import { RejectDialog } from './reject-dialog';
import { ReviewCards } from './review-cards';
import { SavedFile } from './saved-file';

/** The detail pages of spec §2.9, one per route. */
export type DetailsVariant = 'dev' | 'release' | 'rejected' | 'approval-pending' | 'approve' | 'sign';

const FALLBACK_TITLES: Record<DetailsVariant, string> = {
  dev: MSG.packageGenerated,
  release: MSG.packageGenerated,
  rejected: MSG.packageRejectedTitle,
  'approval-pending': MSG.packageApprovalPending,
  approve: MSG.approveDevPackageTitle,
  sign: MSG.devPackageApproved,
};

/** Why there is nothing to download yet, in the package's own terms. */
function notGeneratedReason(pkg: Package): string {
  switch (pkg.status) {
    case 'DRAFT':
      return 'The package is a draft: it has not been sent for approval yet.';
    case 'PENDING_APPROVAL':
      return 'The package file is generated when every approver has approved.';
    case 'AWAITING_SIGNATURE':
      return 'The package file is generated when the signer signs.';
    case 'GENERATING':
      return 'The package file is being generated.';
    case 'REJECTED':
      return 'The package was rejected; no package file was generated.';
    case 'APPROVED':
    case 'SIGNED':
    case 'DELIVERY_PENDING':
    case 'DELIVERED':
    case 'DELIVERY_REJECTED':
      return 'The package file is not generated yet.';
    default:
      return assertNever(pkg.status, 'package status');
  }
}

function DownloadBlock({ pkg }: { pkg: Package }) {
  const download = usePackageDownload(pkg);
  if (!isGenerated(pkg)) return <p className="frp-muted">{notGeneratedReason(pkg)}</p>;
  return (
    <>
      <Button onClick={download.start} isDisabled={download.progress !== null}>
        {MSG.download}
      </Button>
      {download.progress !== null ? <ProgressBar percent={download.progress} label="Downloading" /> : null}
      {download.saved ? <SavedFile file={download.saved} /> : null}
    </>
  );
}

/**
 * Workflow mails about the package that failed every retry (docs/decisions/095): the initiator and
 * admins see who was not told by mail, and why; the workflow itself went on.
 */
function MailFailures({ pkg, viewer }: { pkg: Package; viewer: SessionState['user'] }) {
  const failures = pkg.mailFailures ?? [];
  if (failures.length === 0 || !viewer) return null;
  if (viewer.userRole !== 'ADMIN' && viewer.id !== pkg.initiator.id) return null;
  return (
    <Alert variation="warning" heading="Mail not delivered" marginBottom="1.25rem">
      <p>
        These mails about the package could not be delivered after every retry. The package went on; tell the
        people below another way.
      </p>
      <ul aria-label="Undelivered mails">
        {failures.map((f) => (
          <li key={`${f.to}|${f.subject}|${f.at}`}>
            <strong>{f.to}</strong>: “{f.subject}” ({f.at.replace('T', ' ').slice(0, 19)} UTC) — {f.reason}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/** A package seen GENERATING here moves to the spec's download page by itself once it is ready (decision 160). */
function MovesToDownloadWhenReady({ pkg }: { pkg: Package }) {
  const navigate = useNavigate();
  const [sawGenerating, setSawGenerating] = useState(pkg.status === 'GENERATING');
  useEffect(() => {
    if (pkg.status === 'GENERATING') setSawGenerating(true);
    else if (sawGenerating && isGenerated(pkg)) navigate(paths.packages.download);
  }, [pkg, sawGenerating, navigate]);
  return null;
}

/** Starts the delivery flow (spec §4.1 'delivery'): the header, then the delivery approvers. */
function startDelivery(navigate: ReturnType<typeof useNavigate>) {
  session.update({ flowPurpose: 'delivery', subHeader: MSG.generateDeliveryPackageTitle });
  navigate(paths.packages.headerView);
}

/** A draft its initiator left: back to the header step of the creation flow. */
function resumeDraft(pkg: Package, navigate: ReturnType<typeof useNavigate>) {
  session.update({
    flowPurpose: pkg.resourceStage === 'RELEASE' ? 'release' : 'dev',
    subHeader: creationTitle(pkg.resourceStage),
  });
  navigate(paths.packages.header);
}

function titleOf(variant: DetailsVariant, state: SessionState, pkg: Package): string {
  if (state.subHeader) return state.subHeader;
  if (variant === 'approve' || variant === 'sign') return rowClickTarget(pkg, state.flowPurpose).subHeader;
  return FALLBACK_TITLES[variant];
}

/**
 * Spec §2.9: a package opened from a list. Every variant shows Initiator, Package name, Resource name,
 * Upload time, SIGN/NO SIGN and the Note, its approvers with their marks and the approval record.
 * Decision flows (approve, sign) have Cancel, Reject and Continue to the header view; the delivery flow
 * has no Reject; the release page delivers, the delivery-rejected page re-delivers.
 */
export function PackageDetailsPage({ variant }: { variant: DetailsVariant }) {
  const navigate = useNavigate();
  const state = useSession();
  const { currentPackage: pkg, flowPurpose, user } = state;
  const [rejecting, setRejecting] = useState(false);
  const decision = variant === 'approve' || variant === 'sign';
  // the comparison the page shows, and the reject dialog states and sends (decision 266)
  const changes = usePackageChanges(decision ? pkg?.id : undefined);
  if (!pkg) return <NoPackage />;

  const reject = decision ? rejectKind(flowPurpose) : null;
  // the approval policy's order (docs/approval-policy.md): whom the user's approval waits for first
  const awaited = decision ? waitsFirstFor(pkg, user?.id, flowPurpose) : [];
  const deliverable = canDeliver(pkg, user?.userRole);
  const delivery = pkg.deliveryApprovers.length > 0;
  const ownDraft = isEditable(pkg.status) && pkg.initiator.id === user?.id;
  const rejectionNote =
    pkg.rejectionNote ??
    pkg.deliveryApprovers.find((a) => a.rejected)?.rejectionNote ??
    pkg.approvers.find((a) => a.rejected)?.rejectionNote;

  return (
    <PackagePage
      id="package-details-title"
      title={titleOf(variant, state, pkg)}
      // the spec's title stays; beside it, the package's state in words
      aside={
        <span className="frp-title-state" data-testid="title-state">
          State: <PackageStateBadge pkg={pkg} />
        </span>
      }
    >
      {(variant === 'rejected' || pkg.status === 'REJECTED') && rejectionNote ? (
        <Alert variation="error" heading="Rejection note" marginBottom="1.25rem">
          {rejectionNote}
        </Alert>
      ) : null}
      <MailFailures pkg={pkg} viewer={user} />
      <Departures pkg={pkg} user={user} />
      {showsGeneration(pkg) ? <GenerationStatus pkg={pkg} /> : null}
      <MovesToDownloadWhenReady pkg={pkg} />
      <PackageSection id="pkg-fields" title="Package">
        <PackageFields pkg={pkg} />
        <ReviewCards pkg={pkg} />
        {decision ? <ChangesPanel pkg={pkg} query={changes} /> : null}
      </PackageSection>

      {delivery ? (
        <PackageSection id="pkg-delivery-approvers" title="Delivery approvers">
          <ApproverMarks entries={pkg.deliveryApprovers} label="Delivery approvers" you={user?.id} />
        </PackageSection>
      ) : null}
      {pkg.approvers.length > 0 ? (
        <PackageSection id="pkg-approvers" title={pkg.signer ? 'Approvers and signer' : 'Approvers'}>
          <ApproverMarks entries={pkg.approvers} label="Approvers" you={user?.id} />
          {pkg.signer ? (
            <p className="frp-muted">
              Signer: <strong>{pkg.signer.name}</strong>
              {pkg.signer.id === user?.id ? <span className="frp-you"> (you)</span> : null} (
              {pkg.signer.email}){pkg.status === 'SIGNED' || pkg.mLifePath ? ' — signed' : ''}
            </p>
          ) : null}
        </PackageSection>
      ) : null}

      {variant === 'dev' || variant === 'release' ? (
        <PackageSection id="pkg-file" title="Package file">
          <DownloadBlock pkg={pkg} />
        </PackageSection>
      ) : null}

      <PackageSection id="pkg-record" title="Approval record (newest first)">
        <ApprovalRecord packageId={pkg.id} />
      </PackageSection>

      <ActionBar
        label="Package actions"
        note={
          awaited.length > 0
            ? turnSentence(awaited)
            : variant === 'release' &&
                !deliverable &&
                pkg.resourceStage === 'RELEASE' &&
                isGenerated(pkg) &&
                !delivery
              ? isDeliverableType(pkg)
                ? 'Delivery is started by a SW/FW Release Engineer.'
                : MSG.unsignedNotDelivered
              : undefined
        }
      >
        <Button onClick={() => navigate(listPathOf(flowPurpose))}>{MSG.cancel}</Button>
        <ActionBarSpacer />
        {reject ? (
          <Button variation="destructive" onClick={() => setRejecting(true)}>
            {MSG.reject}
          </Button>
        ) : null}
        {decision ? (
          <Button variation="primary" onClick={() => navigate(paths.packages.headerView)}>
            {MSG.continue}
          </Button>
        ) : (
          <>
            <Button onClick={() => navigate(paths.packages.headerView)}>View header</Button>
            <WithdrawButton pkg={pkg} user={user} />
            {ownDraft ? (
              <Button variation="primary" onClick={() => resumeDraft(pkg, navigate)}>
                Continue editing
              </Button>
            ) : null}
            {variant === 'release' && deliverable ? (
              <Button variation="primary" onClick={() => startDelivery(navigate)}>
                {MSG.deliver}
              </Button>
            ) : null}
            {variant === 'rejected' && deliverable ? (
              <Button variation="primary" onClick={() => startDelivery(navigate)}>
                {MSG.reDeliver}
              </Button>
            ) : null}
          </>
        )}
      </ActionBar>
      {rejecting && reject ? (
        <RejectDialog pkg={pkg} kind={reject} onCancel={() => setRejecting(false)} changes={changes} />
      ) : null}
    </PackagePage>
  );
}

export const DevViewPage = () => <PackageDetailsPage variant="dev" />;
export const ReleaseViewPage = () => <PackageDetailsPage variant="release" />;
export const RejectedViewPage = () => <PackageDetailsPage variant="rejected" />;
export const ApprovalPendingViewPage = () => <PackageDetailsPage variant="approval-pending" />;
export const ApproveViewPage = () => <PackageDetailsPage variant="approve" />;
export const SignViewPage = () => <PackageDetailsPage variant="sign" />;
