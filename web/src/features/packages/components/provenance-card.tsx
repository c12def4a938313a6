import { Button } from '@aws-amplify/ui-react';
import type { Package } from '@shared/api/contracts/packages';
import type { SbomComponent } from '@shared/api/contracts/provenance';
import { useState } from 'react';
import { downloadSbom } from '../api/sbom';
import { formatFileSize } from '../utils/file-size';

export const NO_PROVENANCE = 'No build provenance recorded';
export const NO_SBOM = 'No SBOM recorded';

const componentText = (c: SbomComponent) => (c.version ? `${c.name} ${c.version}` : c.name);

/** The commit, short; the full one on hover, and copied whole by the button. */
function Commit({ commit }: { commit: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(commit);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <>
      <abbr className="frp-mono" title={commit}>
        {commit.slice(0, 12)}
      </abbr>{' '}
      <Button size="small" aria-label={`Copy the full commit ${commit}`} onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </>
  );
}

/**
 * where the build came from and what it is made of, as the package pins them (copied from the
 * resource when the package was created; generation refuses an SBOM that changed since). On the approval,
 * signature and delivery review pages and the package details.
 */
export function ProvenanceCard({ pkg }: { pkg: Package }) {
  const p = pkg.resourceFile?.provenance;
  const sbom = pkg.resourceFile?.sbom;
  return (
    <section className="frp-review-card" aria-labelledby="review-provenance">
      <h2 id="review-provenance" className="frp-review-card__title">
        Build provenance
      </h2>
      {p ? (
        <dl className="frp-review-facts" aria-label="Build provenance details">
          <dt>Repository</dt>
          <dd className="frp-mono">{p.repository}</dd>
          <dt>Commit</dt>
          <dd>
            <Commit commit={p.commit} />
          </dd>
          <dt>Build</dt>
          <dd>
            <a href={p.buildUrl} target="_blank" rel="noopener noreferrer external">
              {p.buildId}
            </a>
          </dd>
          <dt>Builder</dt>
          <dd>{p.builder}</dd>
        </dl>
      ) : (
        <p className="frp-review-missing" role="note">
          {NO_PROVENANCE}
        </p>
      )}
      <h3 className="frp-review-card__subtitle">SBOM</h3>
      {sbom ? (
        <>
          <dl className="frp-review-facts" aria-label="SBOM details">
            <dt>Format</dt>
            <dd>
              {sbom.format} {sbom.specVersion}
            </dd>
            {sbom.subject ? (
              <>
                <dt>Describes</dt>
                <dd>{componentText(sbom.subject)}</dd>
              </>
            ) : null}
            <dt>Components</dt>
            <dd>{sbom.componentCount.toLocaleString('en-US')}</dd>
            <dt>File</dt>
            <dd>
              <span className="frp-mono">{sbom.fileName}</span>, {formatFileSize(sbom.sizeBytes)}
            </dd>
            <dt>SHA-256</dt>
            <dd className="frp-mono frp-review-hash">{sbom.sha256}</dd>
          </dl>
          {sbom.topComponents.length ? (
            <ul className="frp-sbom-components" aria-label="Top-level components">
              {sbom.topComponents.map((c) => (
                <li key={`${c.name}@${c.version ?? ''}@${c.purl ?? ''}`} title={c.purl}>
                  {componentText(c)}
                </li>
              ))}
              {sbom.componentCount > sbom.topComponents.length ? (
                <li className="frp-muted">
                  and {(sbom.componentCount - sbom.topComponents.length).toLocaleString('en-US')} more in the
                  file
                </li>
              ) : null}
            </ul>
          ) : null}
          <Button size="small" onClick={() => void downloadSbom(pkg.id, sbom.fileName, sbom.sha256)}>
            Download SBOM
          </Button>
        </>
      ) : (
        <p className="frp-review-missing" role="note">
          {NO_SBOM}
        </p>
      )}
    </section>
  );
}
