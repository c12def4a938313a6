import type { Package } from '@shared/api/contracts/packages';
import type {
  BuildChange,
  DccChange,
  EntryCells,
  FileChange,
  HeaderFieldChange,
  PackageChanges,
  ValueCells,
} from '@shared/domain/package-changes';
import { packageLinkPath } from '@shared/domain/package-link';
import { MSG } from '@shared/messages';
import { Link } from 'react-router-dom';
import { useApiQuery } from '@/hooks/use-api-query';
import { getChanges } from '../api/changes';
import { STATUS_LABELS } from '../utils/package-flow';
import { formatFileSize } from './review-cards';

const DCC_LABELS: Record<DccChange['field'], string> = {
  dccId: 'DCC id',
  deviceId: MSG.colDeviceId,
  telemetryType: MSG.colTelemetryType,
  messageLimit: MSG.colMessageLimit,
  deviceLimit: MSG.colDeviceLimit,
};

const BUILD_LABELS: Record<BuildChange['field'], string> = {
  repository: 'Repository',
  commit: 'Commit',
  buildId: 'Build',
  builder: 'Builder',
  sbomFormat: 'SBOM format',
  sbomComponents: 'SBOM components',
};

const FILE_LABELS: Record<FileChange['file'], string> = {
  payload: 'Payload',
  metadata: 'Metadata',
  sbom: 'SBOM',
};

export type ChangesQuery = ReturnType<typeof usePackageChanges>;

/** The comparison of package `id` (nothing is loaded without an id). */
export function usePackageChanges(id: string | undefined) {
  return useApiQuery(
    (signal) =>
      id
        ? getChanges(id, signal)
        : Promise.resolve({ ok: false as const, status: 0, error: { errorMessage: '' } }),
    [id],
  );
}

/**
 * The signature dialog's line: the signer states having seen the comparison, against which
 * package; undefined while it is not loaded.
 */
export function changesSeenText(query: ChangesQuery): string | undefined {
  const d = query.data;
  if (!d) return undefined;
  const prev = d.changes?.previous;
  return prev
    ? `${MSG.changesSeen} Compared with ${prev.name} (${STATUS_LABELS[prev.status]}).`
    : `${MSG.changesSeen} ${d.message ?? MSG.noEarlierApproved}`;
}

/** `42 (0x0000002A)`, an enum's label first: `MORE (3, 0x03)`; a dash when the side has no value. */
export function cellsText(c: ValueCells | null): string {
  if (!c) return '—';
  if (c.label !== undefined) return `${c.label} (${c.decimal}, ${c.hex})`;
  return c.decimal === '' ? c.hex : `${c.decimal} (${c.hex})`;
}

const entryText = (e: EntryCells) =>
  `Entry ${e.index + 1}: ${e.values.map((v) => `${v.name} ${cellsText(v.cells)}`).join(', ')}`;

const dccValue = (field: DccChange['field'], v: string | number | null) =>
  v === null
    ? '—'
    : typeof v === 'number' && field !== 'dccId'
      ? `${v.toLocaleString('en-US')} bytes`
      : String(v);

function FieldRows({ changes }: { changes: HeaderFieldChange[] }) {
  return (
    <>
      {changes.map((c) => (
        <tr key={c.path}>
          <th scope="row">
            {c.path}
            {c.computed ? <span className="frp-muted"> (set by the server)</span> : null}
          </th>
          <td className="frp-mono">{cellsText(c.old)}</td>
          <td className="frp-mono">{cellsText(c.new)}</td>
        </tr>
      ))}
    </>
  );
}

function fileSide(f: FileChange['old']): string {
  if (!f) return 'not recorded';
  const size = f.sizeBytes !== undefined ? formatFileSize(f.sizeBytes) : 'size not recorded';
  return `${size}, SHA-256 ${f.sha256 ?? 'not recorded'}`;
}

function FileRows({ files, label }: { files: FileChange[]; label: string }) {
  return (
    <ul className="frp-changes-list" aria-label={label}>
      {files.map((f) => (
        <li key={f.file}>
          <strong>{FILE_LABELS[f.file]}</strong>
          {f.sameDigest && f.sameSize ? (
            <span> — the same file ({fileSide(f.new)})</span>
          ) : (
            <>
              <span> — changed</span>
              <div className="frp-mono frp-review-hash">was: {fileSide(f.old)}</div>
              <div className="frp-mono frp-review-hash">now: {fileSide(f.new)}</div>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** the SBOM's digest and the build provenance values that differ (answers of servers older than build provenance have none; decision 277). */
function BuildRows({ changes }: { changes: PackageChanges }) {
  const sbom = changes.files.filter((f) => f.file === 'sbom');
  const build = changes.build ?? [];
  if (changes.build === undefined && sbom.length === 0) return null;
  return (
    <>
      <h3 className="frp-changes__sub">Build provenance and SBOM</h3>
      {sbom.length ? <FileRows files={sbom} label="SBOM file" /> : null}
      {build.length === 0 ? (
        <p>The build provenance and the SBOM's format and component count are the same.</p>
      ) : (
        <ul className="frp-changes-list" aria-label="Build provenance differences">
          {build.map((b) => (
            <li key={b.field}>
              <strong>{BUILD_LABELS[b.field]}</strong>: <span className="frp-mono">{b.old ?? '—'}</span> →{' '}
              <span className="frp-mono">{b.new ?? '—'}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The comparison itself, once loaded. */
export function ChangesBody({ changes, message }: { changes: PackageChanges | null; message?: string }) {
  const prev = changes?.previous;
  if (!changes || !prev) return <p role="note">{message ?? MSG.noEarlierApproved}</p>;
  const headerSame = changes.header.length === 0 && changes.lists.length === 0;
  return (
    <>
      <p>
        Compared with <Link to={packageLinkPath(prev.id)}>{prev.name}</Link> ({STATUS_LABELS[prev.status]}
        {prev.approvedAt ? `; approved ${prev.approvedAt.replace('T', ' ').slice(0, 16)} UTC` : ''}), the last
        approved package for device <span className="frp-mono">{changes.deviceId}</span> and resource type{' '}
        {changes.resourceType.toLowerCase()}.
      </p>
      <h3 className="frp-changes__sub">Header</h3>
      {!changes.headerCompared ? (
        <p className="frp-review-missing">The headers could not be compared.</p>
      ) : headerSame ? (
        <p>No header field differs.</p>
      ) : (
        <>
          {changes.header.length ? (
            <div className="frp-changes-scroll">
              <table className="frp-changes-table" aria-label="Header fields that differ">
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Before (decimal, hex)</th>
                    <th scope="col">Now (decimal, hex)</th>
                  </tr>
                </thead>
                <tbody>
                  <FieldRows changes={changes.header} />
                </tbody>
              </table>
            </div>
          ) : null}
          {changes.lists.map((l) => (
            <div key={l.field} className="frp-changes-listblock">
              <p>
                <strong>{l.field}</strong>: {l.oldCount} → {l.newCount} entries
              </p>
              <ul className="frp-changes-list" aria-label={`${l.field} changes`}>
                {l.added.map((e) => (
                  <li key={`a${e.index}`}>
                    <span className="frp-changes-tag">Added</span> {entryText(e)}
                  </li>
                ))}
                {l.removed.map((e) => (
                  <li key={`r${e.index}`}>
                    <span className="frp-changes-tag">Removed</span> {entryText(e)}
                  </li>
                ))}
                {l.changed.map((e) => (
                  <li key={`c${e.index}`}>
                    <span className="frp-changes-tag">Changed</span> Entry {e.index + 1}:{' '}
                    {e.changes
                      .map((c) => `${c.path.split('.').at(-1)} ${cellsText(c.old)} → ${cellsText(c.new)}`)
                      .join(', ')}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </>
      )}
      <h3 className="frp-changes__sub">Payload and metadata</h3>
      <FileRows files={changes.files.filter((f) => f.file !== 'sbom')} label="Payload and metadata" />
      <BuildRows changes={changes} />
      <h3 className="frp-changes__sub">DCC</h3>
      {changes.dcc.length === 0 ? (
        <p>The DCC values are the same.</p>
      ) : (
        <ul className="frp-changes-list" aria-label="DCC differences">
          {changes.dcc.map((d) => (
            <li key={d.field}>
              <strong>{DCC_LABELS[d.field]}</strong>: {dccValue(d.field, d.old)} → {dccValue(d.field, d.new)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * "Changes since the last approved package" for the same device and resource type, above the
 * decision on the review pages (approval, signature, delivery). GET /packages/{id}/changes.
 */
export function ChangesPanel({ pkg, query: given }: { pkg: Package; query?: ChangesQuery }) {
  const own = usePackageChanges(given ? undefined : pkg.id);
  const query = given ?? own;
  return (
    <section className="frp-changes" aria-labelledby="changes-title">
      <h2 id="changes-title" className="frp-review-card__title">
        {MSG.changesTitle}
      </h2>
      {query.data ? (
        <ChangesBody changes={query.data.changes} message={query.data.message} />
      ) : query.loading ? (
        <p className="frp-muted">Loading the comparison…</p>
      ) : (
        <p className="frp-review-missing">The comparison could not be loaded.</p>
      )}
    </section>
  );
}
