import type { BucketName, TableName } from './routes';

/** Environment variable carrying a table's physical name to a handler. */
export const tableEnv = (t: TableName): string => `TABLE_${t.toUpperCase()}`;
/** Environment variable carrying a bucket's physical name to a handler. */
export const bucketEnv = (b: BucketName): string => `BUCKET_${b.toUpperCase()}`;

/** Content types API Gateway passes to Lambda base64-encoded (binary media types). */
export const BINARY_MEDIA_TYPES = ['multipart/form-data', 'application/octet-stream'];

/** API Gateway's request payload limit and Lambda's synchronous response limit. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
export const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

/** Headers every API answer carries (the CloudFront response headers policy sends the same for the SPA). */
export const SECURITY_HEADERS: Record<string, string> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
};

/**
 * SECURITY_HEADERS with more sources in the CSP's connect-src: the storage origins that presigned URLs
 * point at, which the SPA reaches with XHR. CloudFront's policy adds the S3 bucket hosts the same way.
 */
export function securityHeadersWithConnectSources(sources: readonly string[]): Record<string, string> {
  const csp = SECURITY_HEADERS['Content-Security-Policy'] ?? '';
  if (sources.length === 0) return { ...SECURITY_HEADERS };
  const directives = csp
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '');
  const i = directives.findIndex((d) => d.startsWith('connect-src'));
  if (i === -1) directives.push(`connect-src 'self' ${sources.join(' ')}`);
  else directives[i] = `${directives[i]} ${sources.join(' ')}`;
  return { ...SECURITY_HEADERS, 'Content-Security-Policy': directives.join('; ') };
}
