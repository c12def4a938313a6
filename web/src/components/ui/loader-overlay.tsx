import { Loader } from '@aws-amplify/ui-react';
import { useIsLoading } from '@/lib/loader/loader-store';

/** Spec §2.4: a loader overlay while calls run. */
export function LoaderOverlay({ force = false }: { force?: boolean }) {
  const loading = useIsLoading();
  if (!loading && !force) return null;
  return (
    <div className="frp-overlay frp-overlay--loader" role="status" aria-live="polite">
      <Loader size="large" width="3rem" height="3rem" aria-hidden="true" />
      <span className="amplify-visually-hidden">Loading…</span>
    </div>
  );
}
