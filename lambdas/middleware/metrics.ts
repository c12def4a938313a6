import { EmfMetrics } from '../adapters/emf/emf-metrics';
import type { AuditLog } from '../ports/audit-log';
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
 * The audit log, counting the business events it records (a generated package, a mail given up): they
 * happen deep in a service or a worker, and their audit event is the one place each is written once.
 */
export function countingAudit(log: AuditLog, m: () => Metrics = metrics): AuditLog {
  return {
    append: async (event) => {
      await log.append(event);
      const name = AUDITED_METRICS[event.action];
      if (name) m().count(name);
    },
    history: (subject) => log.history(subject),
  };
}
