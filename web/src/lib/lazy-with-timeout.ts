import { env } from '@/config/env';

/** Spec §9: a script chunk that has not loaded after 120 s fails (the router then shows its fallback). */
export function withTimeout<T>(
  load: () => Promise<T>,
  ms: number = env.chunkLoadTimeoutMs,
): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`A part of the application did not load within ${ms / 1000} seconds`)),
        ms,
      );
      load().then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
}
