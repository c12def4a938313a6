import { Alert, Button } from '@aws-amplify/ui-react';
import type { Package } from '@shared/api/contracts/packages';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { generationProgress } from '@/components/ui/package-state';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useRefreshWhile } from '@/hooks/use-refresh-while';
import { callApi, readAnswer } from '@/lib/api-client/api-client';
import { session, useSession } from '@/lib/session/session-store';
import { getPackageDetails, packageOf } from '../api/package-lists';

/** How often a page showing a generation asks for its progress. */
export const GENERATION_POLL_MS = 1000;

/** Whether the page shows a generation: running, or failed with a reason (decision 160). */
export const showsGeneration = (pkg: Package): boolean =>
  pkg.status === 'GENERATING' || pkg.generation?.state === 'FAILED';

/**
 * While the package is GENERATING, reads it again every second from its stage's list and puts the fresh
 * copy in the session (the page re-renders with the progress, and with the ready package at the end).
 * The shared background refresh of decision 178: no loader, no popup storm, paused in a hidden tab.
 */
export function useGenerationPolling(pkg: Package | null): void {
  const id = pkg?.id;
  // one package by id (GET /packages/{id}/details), not its whole stage list, every second
  useRefreshWhile(
    !!id && pkg?.status === 'GENERATING',
    (signal) => getPackageDetails(id ?? '', signal, true),
    ({ pkg: fresh }) => {
      if (fresh && fresh.id === id) session.update({ currentPackage: fresh });
    },
    { intervalMs: GENERATION_POLL_MS },
  );
}

/**
 * The generation of the package's XML off the request path (decision 160): "Generating…" with the bytes
 * done of the total, or after a failure the reason and, for the person whose decision started it, Retry.
 */
export function GenerationStatus({ pkg }: { pkg: Package }) {
  const { user } = useSession();
  const [retrying, setRetrying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useGenerationPolling(pkg);
  const g = pkg.generation;
  if (pkg.status === 'GENERATING') {
    const { percent, text } = generationProgress(pkg);
    return (
      <section aria-label="Generation" className="frp-generation" style={{ margin: '1rem 0' }}>
        <Alert variation="info" heading="Generating…">
          <p>
            The XML package is being generated: <span data-testid="generation-bytes">{text}</span>. This page
            moves on by itself when it is ready.
          </p>
          {percent === null ? null : <ProgressBar percent={percent} label="Generating" />}
        </Alert>
      </section>
    );
  }
  if (g?.state !== 'FAILED') return null;
  const mine = user?.id === g.requestedBy.id;
  const retry = async () => {
    setRetrying(true);
    const r = await callApi('retryGeneration', { params: { id: pkg.id } }, { handle: [403, 404, 409] });
    setRetrying(false);
    if (!r.ok) {
      setError(r.error.errorMessage);
      return;
    }
    const next = readAnswer(r, packageOf, 'all');
    if (!next.ok) setError(next.error.errorMessage);
    else if (next.data) session.update({ currentPackage: next.data });
  };
  return (
    <Alert variation="error" heading="Generation failed" marginBottom="1.25rem">
      <p data-testid="generation-reason">{g.reason}</p>
      <p>
        The package is back where it was before the decision of {g.requestedBy.name}; the decision stays
        recorded. {mine ? 'Retry starts the generation again.' : `Only ${g.requestedBy.name} may retry it.`}
      </p>
      {error ? <p role="alert">{error}</p> : null}
      {mine ? (
        <Button variation="primary" onClick={retry} isLoading={retrying} loadingText="Retrying…">
          {MSG.retryGeneration}
        </Button>
      ) : null}
    </Alert>
  );
}
