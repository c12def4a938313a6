import type { Package } from '@shared/api/contracts/packages';
import { StatusBadge } from './status-badge';

const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;

/**
 * "3.0 MiB of 12.0 MiB" (bytes of the resource read so far) and the percentage (decision 160). Only sizes
 * it knows: before the worker has read the resource's size there is no "0.0 MiB of 0.0 MiB",
 * only that it starts, and no percentage.
 */
export function generationProgress(pkg: Pick<Package, 'generation'>): {
  percent: number | null;
  text: string;
} {
  const g = pkg.generation;
  const total = g?.bytesTotal ?? 0;
  if (total <= 0) return { percent: null, text: 'starting (the size is not known yet)' };
  const done = Math.min(g?.bytesDone ?? 0, total);
  return { percent: (done / total) * 100, text: `${mib(done)} of ${mib(total)}` };
}

/** Whether a list shows a package whose XML is being generated: it then refreshes itself (decision 178). */
export const anyGenerating = (rows: readonly Pick<Package, 'status'>[]): boolean =>
  rows.some((p) => p.status === 'GENERATING');

/**
 * A list's word on a package's generation (decisions 160, 178): "Generating… 1.0 MiB of 4.0 MiB" while it
 * runs; after a failure "Generation failed: <reason>", as the detail page says it; otherwise nothing.
 */
export function GenerationBadge({ pkg }: { pkg: Pick<Package, 'status' | 'generation'> }) {
  if (pkg.status === 'GENERATING')
    return (
      <span className="frp-badge frp-badge--wait" data-testid="generating-label">
        Generating… {generationProgress(pkg).text}
      </span>
    );
  if (pkg.generation?.state !== 'FAILED') return null;
  return (
    <span className="frp-badge frp-badge--bad frp-badge--wrap" data-testid="generation-failed">
      Generation failed: {pkg.generation.reason}
    </span>
  );
}

/** The server's state of a package with its generation: the admin table's State column. */
export function PackageStateBadge({ pkg }: { pkg: Pick<Package, 'status' | 'generation'> }) {
  if (pkg.status === 'GENERATING') return <GenerationBadge pkg={pkg} />;
  if (pkg.generation?.state !== 'FAILED') return <StatusBadge status={pkg.status} />;
  return (
    <>
      <StatusBadge status={pkg.status} /> <GenerationBadge pkg={pkg} />
    </>
  );
}
