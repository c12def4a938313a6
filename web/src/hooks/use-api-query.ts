import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from '@/lib/api-client/api-client';
import { type RefreshOptions, useRefreshWhile } from './use-refresh-while';

export interface ApiQuery<T> {
  data: T | undefined;
  loading: boolean;
  /** the failed result, once the shared popups have dealt with it */
  failed: boolean;
  reload: () => void;
}

export interface ApiQueryOptions<T> extends RefreshOptions {
  /**
   * Decision 178: while this holds for the data shown (a list with a GENERATING package), the data is
   * read again in the background (useRefreshWhile): `load` is then called with `background` true and must
   * be quiet; the screen keeps its data, and shows no loading, while it runs or when it fails.
   */
  refreshWhile?: (data: T) => boolean;
}

/**
 * Loads data for a screen: runs `load` when `deps` change, drops answers that arrive after a newer
 * request started (fast tab switches), and aborts on unmount. Failures already went to the popups.
 */
export function useApiQuery<T>(
  load: (signal: AbortSignal, background: boolean) => Promise<ApiResult<T>>,
  deps: DependencyList,
  { refreshWhile, ...refreshOptions }: ApiQueryOptions<T> = {},
): ApiQuery<T> {
  const [state, setState] = useState<{ data: T | undefined; loading: boolean; failed: boolean }>({
    data: undefined,
    loading: true,
    failed: false,
  });
  const [version, setVersion] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // each load a person started; a background answer counts only if no newer one started meanwhile
  const epoch = useRef(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: deps are the caller's, version forces reloads
  useEffect(() => {
    const controller = new AbortController();
    epoch.current += 1;
    setState({ data: undefined, loading: true, failed: false });
    loadRef.current(controller.signal, false).then((result) => {
      if (controller.signal.aborted) return;
      setState(
        result.ok
          ? { data: result.data, loading: false, failed: false }
          : { data: undefined, loading: false, failed: true },
      );
    });
    return () => controller.abort();
  }, [...deps, version]);

  const shown = state.loading ? undefined : state.data;
  useRefreshWhile(
    shown !== undefined && !!refreshWhile?.(shown),
    async (signal) => {
      const at = epoch.current;
      const result = await loadRef.current(signal, true);
      return result.ok ? { ...result, data: { at, data: result.data } } : result;
    },
    ({ at, data }) => {
      if (at === epoch.current) setState({ data, loading: false, failed: false });
    },
    refreshOptions,
  );

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { ...state, reload };
}
