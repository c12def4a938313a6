import { EmfMetrics } from '../adapters/emf/emf-metrics';
import type { AuditEvent } from '../ports/audit-log';
import type { BusinessMetric, Metrics } from '../ports/metrics';

let instance: Metrics | undefined;

/** This Lambda's business metrics (EMF into METRICS_NAMESPACE_ENV's namespace; none when it is unset). */
export function metrics(): Metrics {
  instance ??= new EmfMetrics(process.env.METRICS_NAMESPACE);
  return instance;
}

/** Replaces the metrics of this process (tests). */
export function useMetrics(m: Metrics | undefined): void {
  instance = m;
}

/** Audit actions that are business events: counted once the event is stored, so each counts once. */
const AUDITED_METRICS: Readonly<Record<string, BusinessMetric>> = {
  PACKAGE_GENERATED: 'PackagesGenerated',
  MAIL_FAILED: 'MailFailures',
};

/**
 * Counts the business events among audit events that just committed (a generated package, a mail given
 * up): they happen deep in a service or a worker, and the commit that records them happens once.
 */
export function countCommitted(
  events: readonly Pick<AuditEvent, 'action'>[],
  m: () => Metrics = metrics,
): void {
  for (const e of events) {
    const name = AUDITED_METRICS[e.action];
    if (name) m().count(name);
  }
}
