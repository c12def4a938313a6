import { useEffect, useRef } from 'react';
import { type ApiResult, expireSession, isSessionExpired } from '@/lib/api-client/api-client';
import { showWarning } from '@/lib/popup/popup-store';

/** How often a screen showing something that moves on by itself (a GENERATING package) reads it again. */
export const REFRESH_MS = 2000;
/** Failed background refreshes in a row before the one message of the screen's life (decision 178). */
export const REFRESH_FAILURES_BEFORE_MESSAGE = 3;
export const REFRESH_FAILING_MESSAGE =
  'This page could not be brought up to date for a while; it keeps trying. Reload the page if it stays as it is.';

export interface RefreshOptions {
  /** the pause between the end of one refresh and the start of the next (default REFRESH_MS) */
  intervalMs?: number;
}

/**
 * Decision 178: while `active`, calls `refresh` every `intervalMs` (one request at a time: the next waits
 * for the previous to end) and hands each good answer to `onFresh`. Stops when `active` turns false or
 * the screen unmounts (the request in flight is aborted); pauses while the browser tab is hidden and
 * refreshes at once when it is visible again. `refresh` must be quiet (`quietly()`: no loader overlay, no
 * popup): a failure is retried at the next tick, and only after REFRESH_FAILURES_BEFORE_MESSAGE failures
 * in a row one warning says so, once per mounted screen. An expired session ends the refreshing with the
 * spec's session-timeout popup (§8), once.
 */
export function useRefreshWhile<T>(
  active: boolean,
  refresh: (signal: AbortSignal) => Promise<ApiResult<T>>,
  onFresh: (data: T) => void,
  { intervalMs = REFRESH_MS }: RefreshOptions = {},
): void {
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const onFreshRef = useRef(onFresh);
  onFreshRef.current = onFresh;
  const failures = useRef(0);
  const told = useRef(false);

  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: AbortController | null = null;

    const schedule = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(tick, ms);
    };
    const tick = async () => {
      timer = undefined;
      if (stopped || document.visibilityState === 'hidden') return; // the tab's return resumes it
      const controller = new AbortController();
      inFlight = controller;
      const result = await refreshRef.current(controller.signal);
      if (stopped || controller.signal.aborted) return;
      inFlight = null;
      if (result.ok) {
        failures.current = 0;
        onFreshRef.current(result.data);
      } else if (isSessionExpired(result.status, result.error.errorMessage)) {
        stopped = true;
        expireSession();
        return;
      } else {
        failures.current += 1;
        if (failures.current >= REFRESH_FAILURES_BEFORE_MESSAGE && !told.current) {
          told.current = true;
          showWarning(REFRESH_FAILING_MESSAGE);
        }
      }
      schedule(intervalMs);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        clearTimeout(timer);
        timer = undefined;
        inFlight?.abort();
        inFlight = null;
      } else if (!timer && !inFlight && !stopped) {
        schedule(0); // what the page shows may have moved on while the tab was hidden
      }
    };

    document.addEventListener('visibilitychange', onVisibility);
    schedule(intervalMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
      inFlight?.abort();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [active, intervalMs]);
}
