import type { BusinessMetric, Metrics } from '../../ports/metrics';

/** Where a line goes: stdout in Lambda (bypassing the runtime's console prefix, as Powertools does). */
export type LineWriter = (line: string) => void;

const toStdout: LineWriter = (line) => {
  process.stdout.write(`${line}\n`);
};

/**
 * CloudWatch embedded metric format: one JSON line per count, which CloudWatch Logs turns into a metric
 * of `namespace` without an API call (no SDK, nothing to wait for). Without a namespace (the local stack)
 * it writes nothing.
 */
export class EmfMetrics implements Metrics {
  constructor(
    private readonly namespace: string | undefined,
    private readonly write: LineWriter = toStdout,
    private readonly now: () => number = Date.now,
  ) {}

  count(name: BusinessMetric, value = 1): void {
    if (!this.namespace) return;
    this.write(
      JSON.stringify({
        _aws: {
          Timestamp: this.now(),
          CloudWatchMetrics: [
            { Namespace: this.namespace, Dimensions: [[]], Metrics: [{ Name: name, Unit: 'Count' }] },
          ],
        },
        [name]: value,
      }),
    );
  }
}
