import { Loader } from '@aws-amplify/ui-react';

/** Shown while the app restores the session at start. */
export function FullPageLoader() {
  return (
    <div className="frp-overlay frp-overlay--loader" role="status">
      <Loader size="large" width="3rem" height="3rem" aria-hidden="true" />
      <span className="amplify-visually-hidden">Loading…</span>
    </div>
  );
}
