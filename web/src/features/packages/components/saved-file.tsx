import type { DownloadedPackage } from '../api/download';

const size = (bytes: number) =>
  bytes < 1_000_000 ? `${bytes.toLocaleString('en-US')} bytes` : `${(bytes / 1_000_000).toFixed(1)} MB`;

/** What was saved: the file name, its size and its SHA-256, checked against the server's. */
export function SavedFile({ file }: { file: DownloadedPackage }) {
  return (
    <div role="status">
      <dl className="frp-pkg-fields frp-download-facts" aria-label="Downloaded file">
        <dt>File</dt>
        <dd className="frp-mono">{file.fileName}</dd>
        <dt>Size</dt>
        <dd>{size(file.sizeBytes)}</dd>
        <dt>SHA-256</dt>
        <dd>
          <span className="frp-mono">{file.sha256 || 'not given by the server'}</span>{' '}
          {file.verified ? (
            <span className="frp-badge frp-badge--ok">verified</span>
          ) : (
            <span className="frp-badge frp-badge--neutral">not checked by this browser</span>
          )}
        </dd>
      </dl>
    </div>
  );
}
