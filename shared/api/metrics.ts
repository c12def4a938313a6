/**
 * The portal's business metrics (decision 312): CloudWatch metrics in embedded metric format, written by
 * the functions as JSON log lines and shown on the dashboard. One namespace per stage and no dimensions:
 * a handful of metrics, so a handful of custom-metric charges.
 */

/** The environment variable naming the namespace; unset (locally) nothing is written. */
export const METRICS_NAMESPACE_ENV = 'METRICS_NAMESPACE';

/** CloudWatch namespace of a stage's business metrics (the trail's key alerts share it). */
export const metricsNamespace = (stage: string): string => `FirmwareReleasePortal/${stage}`;

export const BUSINESS_METRICS = [
  /** a package's XML was generated and committed (PACKAGE_GENERATED audit event) */
  'PackagesGenerated',
  /** an approval vote was recorded (package or delivery round) */
  'Approvals',
  /** a signer signed (the signature starts the signed generation) */
  'Signatures',
  /** the last delivery approval delivered a package */
  'Deliveries',
  /** a generation failed after every retry and its package went back with the reason */
  'FailedGenerations',
  /** a workflow mail was given up (MAIL_FAILED audit event) */
  'MailFailures',
  /** a stored artefact did not match its record (written where the artefact is read) */
  'ArtefactMismatch',
] as const;
export type BusinessMetric = (typeof BUSINESS_METRICS)[number];

/**
 * The business events a route's answer stands for: its row id and status code say it (approve answers 200
 * or 202 whatever the outcome; a delivery approval answers 200 only when it delivered).
 */
export function routeMetrics(routeId: string, statusCode: number | undefined): BusinessMetric[] {
  if (statusCode === undefined || statusCode < 200 || statusCode >= 300) return [];
  const counted = ROUTE_METRICS[routeId];
  if (!counted) return [];
  return statusCode === 200 ? [...counted.any, ...counted.on200] : [...counted.any];
}

/** Per route id: what any 2xx answer counts, and what a 200 alone adds (a delivery approval that delivered). */
const ROUTE_METRICS: Readonly<Record<string, { any: BusinessMetric[]; on200: BusinessMetric[] }>> = {
  approvePackage: { any: ['Approvals'], on200: [] },
  approveDelivery: { any: ['Approvals'], on200: ['Deliveries'] },
  signPackage: { any: ['Signatures'], on200: [] },
};
