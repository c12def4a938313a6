import { Button, Heading } from '@aws-amplify/ui-react';
import type { Package } from '@shared/api/contracts/packages';
import { assertNever } from '@shared/domain/assert-never';
import { MSG } from '@shared/messages';
import { useNavigate } from 'react-router-dom';
import { ProgressBar } from '@/components/ui/progress-bar';
import { STATUS_LABELS } from '@/components/ui/status-badge';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session/session-store';
import { downloadProvenanceStatement } from '../api/sbom';
import { usePackageDownload } from '../hooks/use-package-download';
import { downloadTitle } from '../utils/package-flow';
import { GenerationStatus, showsGeneration } from './generation-status';
import { PackageStrip } from './package-fields';
import { NoPackage, PackagePage } from './package-page';
import { SavedFile } from './saved-file';

/** What the decision that led here did to the package, in words. */
export function whatHappened(pkg: Pick<Package, 'name' | 'status' | 'signed'>): string {
  switch (pkg.status) {
    case 'DELIVERED':
      return `"${pkg.name}" is delivered: every delivery approver approved its delivery to devices.`;
    case 'SIGNED':
      return `"${pkg.name}" is signed and its package file is generated.`;
    case 'APPROVED':
      return `Every approver approved "${pkg.name}"; its package file is generated.`;
    case 'DELIVERY_PENDING':
      return `"${pkg.name}" is sent for delivery and waits for its delivery approvers.`;
    case 'DRAFT':
    case 'PENDING_APPROVAL':
    case 'AWAITING_SIGNATURE':
    case 'GENERATING':
    case 'REJECTED':
    case 'DELIVERY_REJECTED':
      return `"${pkg.name}" is ${STATUS_LABELS[pkg.status].toLowerCase()}.`;
    default:
      return assertNever(pkg.status, 'package status');
  }
}

/** What happens next to the package, and who acts. */
export function whatNext(pkg: Pick<Package, 'status' | 'type'>): string {
  const dev = pkg.type.startsWith('DEV_');
  if (pkg.status === 'DELIVERED')
    return 'Nothing more waits on it. Download the package file to keep a copy.';
  if (dev) return 'Download the package file to install it on development devices for testing.';
  if (pkg.type === 'RELEASE_SIGNED' && pkg.status === 'SIGNED')
    return 'A release engineer can now send it to its delivery approvers for delivery to devices.';
  if (pkg.type === 'RELEASE_UNSIGNED')
    return 'An unsigned release package is not delivered to devices (devices refuse it); download it to keep a copy.';
  return 'Download the package file to keep a copy.';
}

/**
 * Spec §2.8 /packages/download: the success page after a package is generated, signed or delivered.
 * Its title varies with the flow; Download saves the XML file named after the package (a large one the
 * browser downloads itself from its presigned URL, straight to disk); Done goes to /home.
 */
// not 'Download …': the spec's Download button stays the only one of that name
export const STATEMENT_DOWNLOAD = 'Save provenance statement';

export function DownloadPage() {
  const navigate = useNavigate();
  const { currentPackage: pkg, flowPurpose } = useSession();
  const download = usePackageDownload(pkg);
  if (!pkg) return <NoPackage />;
  // generated off the request path (decision 160): progress (or the failure) until the package is ready,
  // then this page by itself
  if (showsGeneration(pkg))
    return (
      <PackagePage id="download-title" title={downloadTitle(flowPurpose, pkg.type)}>
        <PackageStrip pkg={pkg} />
        <GenerationStatus pkg={pkg} />
        <div className="frp-actions" style={{ justifyContent: 'center' }}>
          <Button onClick={() => navigate(paths.home)}>{MSG.done}</Button>
        </div>
      </PackagePage>
    );
  return (
    <PackagePage id="download-title" title={downloadTitle(flowPurpose, pkg.type)}>
      <PackageStrip pkg={pkg} />
      <div className="frp-success">
        <div className="frp-success__icon" aria-hidden="true">
          ✓
        </div>
        <Heading level={2} className="frp-success__text">
          {MSG.success}
        </Heading>
        {/* what happened and what happens next, in words (never a storage key) */}
        <p className="frp-success__what" data-testid="what-happened">
          {whatHappened(pkg)}
        </p>
        <p className="frp-muted" data-testid="what-next">
          {whatNext(pkg)}
        </p>
        {download.progress !== null ? (
          <div style={{ maxWidth: '28rem', margin: '1rem auto' }}>
            <ProgressBar percent={download.progress} label="Downloading" />
          </div>
        ) : null}
        {download.saved ? <SavedFile file={download.saved} /> : null}
      </div>
      <div className="frp-actions" style={{ justifyContent: 'center' }}>
        <Button
          variation={download.saved ? undefined : 'primary'}
          onClick={download.start}
          isDisabled={download.progress !== null}
        >
          {MSG.download}
        </Button>
        {pkg.signed ? (
          // the signed sidecar binding the manifest, payload, provenance and SBOM (decision 279)
          <Button
            onClick={() =>
              void downloadProvenanceStatement(
                pkg.id,
                `${pkg.name.replace(/[^\w.-]+/g, '_')}.provenance-statement.json`,
              )
            }
          >
            {STATEMENT_DOWNLOAD}
          </Button>
        ) : null}
        <Button variation={download.saved ? 'primary' : undefined} onClick={() => navigate(paths.home)}>
          {MSG.done}
        </Button>
      </div>
    </PackagePage>
  );
}
