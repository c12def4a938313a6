import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from '@/lib/api-client/api-client';

export interface ApiQuery<T> {
  data: T | undefined;
  loading: boolean;
  /** the failed result, once the shared popups have dealt with it */
  failed: boolean;
  reload: () => void;
}

/**
 * Loads data for a screen: runs `load` when `deps` change, drops answers that arrive after a newer
 * request started (fast tab switches), and aborts on unmount. Failures already went to the popups.
 */
export function useApiQuery<T>(
  load: (signal: AbortSignal) => Promise<ApiResult<T>>,
  deps: DependencyList,
): ApiQuery<T> {
  const [state, setState] = useState<{ data: T | undefined; loading: boolean; failed: boolean }>({
    data: undefined,
    loading: true,
    failed: false,
  });
  const [version, setVersion] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: deps are the caller's, version forces reloads
  useEffect(() => {
    const controller = new AbortController();
    setState({ data: undefined, loading: true, failed: false });
    loadRef.current(controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      setState(
        result.ok
          ? { data: result.data, loading: false, failed: false }
          : { data: undefined, loading: false, failed: true },
      );
    });
    return () => controller.abort();
  }, [...deps, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { ...state, reload };
}
