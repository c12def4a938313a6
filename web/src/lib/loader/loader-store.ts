import { useSyncExternalStore } from 'react';

/** Calls in flight; the loader overlay (spec §2.4) shows while any runs. */
let running = 0;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export const loader = {
  /** Counts one call in; call the returned function once when it ends. */
  start(): () => void {
    running += 1;
    emit();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      running -= 1;
      emit();
    };
  },
  isLoading: (): boolean => running > 0,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useIsLoading(): boolean {
  return useSyncExternalStore(loader.subscribe, loader.isLoading, loader.isLoading);
}
