import { describe, expect, it } from 'vitest';
import { BUSINESS_METRICS, routeMetrics } from '../../shared/api/metrics';
import { EmfMetrics } from '../adapters/emf/emf-metrics';
import { countCommitted } from '../observability/metrics';
import type { AuditEvent } from '../ports/audit-log';
import type { BusinessMetric } from '../ports/metrics';
import { subjectKeys } from './logging';

/** Business metrics as CloudWatch embedded metric format (decision 312). */
describe('EMF business metrics', () => {
  it('writes one EMF line per count into the stage namespace, without dimensions', () => {
    const lines: string[] = [];
    new EmfMetrics(
      'FirmwareReleasePortal/prod',
      (l) => lines.push(l),
      () => 1_700_000_000_000,
    ).count('Approvals');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      _aws: {
        Timestamp: 1_700_000_000_000,
        CloudWatchMetrics: [
          {
            Namespace: 'FirmwareReleasePortal/prod',
            Dimensions: [[]],
            Metrics: [{ Name: 'Approvals', Unit: 'Count' }],
          },
        ],
      },
      Approvals: 1,
    });
  });

  it('writes nothing without a namespace (the local stack)', () => {
    const lines: string[] = [];
    new EmfMetrics(undefined, (l) => lines.push(l)).count('Signatures');
    expect(lines).toEqual([]);
  });

  it('counts approvals, signatures and deliveries from the route and its status, and nothing refused', () => {
    expect(routeMetrics('approvePackage', 200)).toEqual(['Approvals']);
    expect(routeMetrics('approvePackage', 202)).toEqual(['Approvals']);
    expect(routeMetrics('approveDelivery', 200)).toEqual(['Approvals', 'Deliveries']);
    expect(routeMetrics('approveDelivery', 202)).toEqual(['Approvals']);
    expect(routeMetrics('signPackage', 202)).toEqual(['Signatures']);
    for (const status of [400, 403, 409, 500, undefined])
      expect(routeMetrics('approvePackage', status), String(status)).toEqual([]);
    expect(routeMetrics('listPackages', 200)).toEqual([]);
  });

  it('counts a generated package and a mail given up among committed audit events, nothing else', () => {
    const counted: BusinessMetric[] = [];
    const event = (action: string) => ({ action }) as unknown as AuditEvent;
    countCommitted([event('PACKAGE_GENERATED'), event('MAIL_FAILED'), event('PACKAGE_APPROVED')], () => ({
      count: (n) => void counted.push(n),
    }));
    expect(counted).toEqual(['PackagesGenerated', 'MailFailures']);
    expect(BUSINESS_METRICS).toEqual(expect.arrayContaining(counted));
  });
});

describe('the ids on every log line of a request', () => {
  it('names the package of package and delivery routes, the resource and the upload', () => {
    expect(subjectKeys({ resource: '/packages/{id}/approve', pathParameters: { id: 'p1' } })).toEqual({
      packageId: 'p1',
    });
    expect(
      subjectKeys({ resource: '/delivery/packages/{id}/approve', pathParameters: { id: 'p2' } }),
    ).toEqual({ packageId: 'p2' });
    expect(
      subjectKeys({ resource: '/resources/{id}/generate-package', pathParameters: { id: 'r1' } }),
    ).toEqual({ resourceId: 'r1' });
    expect(
      subjectKeys({ resource: '/resources/uploads/{uploadId}/confirm', pathParameters: { uploadId: 'u1' } }),
    ).toEqual({ uploadId: 'u1' });
    expect(subjectKeys({ resource: '/dcc', pathParameters: null })).toEqual({});
    expect(subjectKeys(undefined)).toEqual({});
  });
});
