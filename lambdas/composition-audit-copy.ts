import { S3AuditObjectStore } from './adapters/s3/audit-object-store';
import { bucketName } from './config/env';

/**
 * The audit-copy worker's adapter (the S3 audit bucket). Workers import their adapters from a composition
 * module like the handlers do, never the adapters themselves; this one is apart so no other Lambda bundles it.
 */
let store: S3AuditObjectStore | undefined;
export function auditObjectStore(): S3AuditObjectStore {
  store ??= new S3AuditObjectStore(bucketName('audit'));
  return store;
}
