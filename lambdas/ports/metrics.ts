import type { BusinessMetric } from '../../shared/api/metrics';

export type { BusinessMetric } from '../../shared/api/metrics';

/** Counts business events (shared/api/metrics.ts); never throws, never waits. */
export interface Metrics {
  count(name: BusinessMetric, value?: number): void;
}
