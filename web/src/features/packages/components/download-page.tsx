import { Button, Heading } from '@aws-amplify/ui-react';
import { MSG } from '@shared/messages';
import { useNavigate } from 'react-router-dom';
import { ProgressBar } from '@/components/ui/progress-bar';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session/session-store';
import { usePackageDownload } from '../hooks/use-package-download';
import { downloadTitle } from '../utils/package-flow';
import { GenerationStatus, showsGeneration } from './generation-status';
import { PackageStrip } from './package-fields';
import { NoPackage, PackagePage } from './package-page';
import { SavedFile } from './saved-file';

/**
 * Spec §2.8 /packages/download: the success page after a package is generated, signed or delivered.
 * Its title varies with the flow; Download saves the XML file named after the package (a large one the
 * browser downloads itself from its presigned URL, straight to disk: issue 24); Done goes to /home.
 */
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
  const location = pkg.mLifePath ?? pkg.linkToS3;
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
        {location ? (
          <p className="frp-muted">
            Storage key <span className="frp-mono">{location}</span>
          </p>
        ) : null}
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
        <Button variation={download.saved ? 'primary' : undefined} onClick={() => navigate(paths.home)}>
          {MSG.done}
        </Button>
      </div>
    </PackagePage>
  );
}
