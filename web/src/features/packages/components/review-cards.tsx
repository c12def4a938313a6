import type { Package } from '@shared/api/contracts/packages';
import { MSG } from '@shared/messages';
import type { ReactNode } from 'react';
import { formatFileSize } from '../utils/file-size';
import { ProvenanceCard } from './provenance-card';

export { formatFileSize } from '../utils/file-size';

function ReviewCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="frp-review-card" aria-labelledby={id}>
      <h2 id={id} className="frp-review-card__title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * What an approver certifies about the device configuration: the attached DCC's device
 * id, telemetry type and limits, as the package answer carries them (decision 150).
 */
export function DccCard({ pkg }: { pkg: Package }) {
  const { dcc } = pkg;
  return (
    <ReviewCard id="review-dcc" title="DCC (device communication configuration)">
      {dcc ? (
        <dl className="frp-review-facts" aria-label="DCC values">
          <dt>{MSG.colDeviceId}</dt>
          <dd className="frp-mono">{dcc.deviceId}</dd>
          <dt>{MSG.colTelemetryType}</dt>
          <dd>{dcc.telemetryType}</dd>
          <dt>{MSG.colMessageLimit}</dt>
          <dd>{dcc.messageLimit.toLocaleString('en-US')} bytes</dd>
          <dt>{MSG.colDeviceLimit}</dt>
          <dd>{dcc.deviceLimit.toLocaleString('en-US')} bytes</dd>
        </dl>
      ) : (
        <p className="frp-review-missing" role="note">
          {pkg.dccId
            ? 'The DCC values were not recorded on this package (it was given its DCC before they were). Check the DCC in the DCC list before deciding.'
            : 'No DCC is attached to this package yet.'}
        </p>
      )}
      {pkg.dccId ? <p className="frp-review-id frp-muted">DCC id: {pkg.dccId}</p> : null}
    </ReviewCard>
  );
}

/** A model package created before the metadata file's digest was recorded (decision 190). */
export const METADATA_NOT_PINNED = 'not recorded on this package';

/**
 * The file the package carries: resource name, file name, exact size and SHA-256, and
 * for models the metadata's model name and version (decision 150) and the metadata file's exact size and
 * SHA-256 (decision 190: the package's patch config, pinned like the payload and checked at generation).
 */
export function FileCard({ pkg }: { pkg: Package }) {
  const file = pkg.resourceFile;
  const model = pkg.resourceType === 'MODEL';
  return (
    <ReviewCard id="review-file" title={model ? 'Model file' : 'Patch file'}>
      <dl className="frp-review-facts" aria-label={model ? 'Model file details' : 'Patch file details'}>
        <dt>{MSG.resourceName}</dt>
        <dd>{pkg.resourceName}</dd>
        {file ? (
          <>
            <dt>File name</dt>
            <dd className="frp-mono">{file.fileName}</dd>
            <dt>Size</dt>
            <dd>{formatFileSize(file.sizeBytes)}</dd>
            <dt>SHA-256</dt>
            <dd className="frp-mono frp-review-hash">{file.sha256}</dd>
            {model ? (
              <>
                <dt>Model name</dt>
                <dd>{file.modelName ?? 'not given in the metadata'}</dd>
                <dt>Model version</dt>
                <dd className="frp-mono">{file.modelVersion ?? 'not given in the metadata'}</dd>
                <dt>Metadata size</dt>
                <dd>
                  {file.metadataSizeBytes !== undefined
                    ? formatFileSize(file.metadataSizeBytes)
                    : METADATA_NOT_PINNED}
                </dd>
                <dt>Metadata SHA-256</dt>
                <dd className="frp-mono frp-review-hash">{file.metadataSha256 ?? METADATA_NOT_PINNED}</dd>
              </>
            ) : null}
          </>
        ) : null}
      </dl>
      {file ? null : (
        <p className="frp-review-missing" role="note">
          The file's size and SHA-256 were not recorded on this package (it was made before they were).
          Compare the resource in the {model ? 'model' : 'patch'} list before deciding.
        </p>
      )}
    </ReviewCard>
  );
}

/** The review cards side by side (stacked on narrow screens); the build provenance and SBOM. */
export function ReviewCards({ pkg }: { pkg: Package }) {
  return (
    <div className="frp-review-cards">
      <FileCard pkg={pkg} />
      <DccCard pkg={pkg} />
      <ProvenanceCard pkg={pkg} />
    </div>
  );
}
