import type { Stage } from './contracts/resources';
import type { BucketName, TableName } from './routes';

/** Environment variable carrying a table's physical name to a handler. */
export const tableEnv = (t: TableName): string => `TABLE_${t.toUpperCase()}`;
/** Environment variable carrying a bucket's physical name to a handler. */
export const bucketEnv = (b: BucketName): string => `BUCKET_${b.toUpperCase()}`;

/**
 * Environment variable carrying the KMS key id of a stage's package signing key (decision 295): the
 * release key keeps the name it had as the only key.
 */
export const signingKeyEnv = (stage: Stage): 'SIGNING_KEY_ID' | 'DEV_SIGNING_KEY_ID' =>
  stage === 'RELEASE' ? 'SIGNING_KEY_ID' : 'DEV_SIGNING_KEY_ID';

/** Content types API Gateway passes to Lambda base64-encoded (binary media types). */
export const BINARY_MEDIA_TYPES = ['multipart/form-data', 'application/octet-stream'];

/** API Gateway's request payload limit (REST APIs): a body over 10485760 bytes is refused. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/**
 * Lambda's synchronous invocation limits, measured on the JSON it carries: the event (the proxy event,
 * binary bodies base64-encoded) must be smaller than 6291456 bytes; the response (the JSON of the
 * handler's result) may have at most 6291556 bytes (docs/decisions/090-local-gateway-limits.md).
 */
export const MAX_EVENT_BYTES = 6 * 1024 * 1024;
export const MAX_RESPONSE_BYTES = 6 * 1024 * 1024 + 100;

/**
 * What API Gateway itself answers (not a handler), byte for byte: the local gateway sends the same, and
 * the SPA's tests use these bodies (docs/decisions/090-local-gateway-limits.md).
 */
export const GATEWAY_ANSWERS = {
  /** unknown path, or a method the path does not have (REST API, no authorizer) */
  missingAuthenticationToken: {
    status: 403,
    contentType: 'application/json',
    errorType: 'MissingAuthenticationTokenException',
    body: '{"message":"Missing Authentication Token"}',
  },
  /** request body over MAX_REQUEST_BYTES (REQUEST_TOO_LARGE; API Gateway does not let it be customised) */
  requestTooLarge: {
    status: 413,
    contentType: 'text; charset=utf-8',
    errorType: undefined,
    body: `HTTP content length exceeded ${MAX_REQUEST_BYTES} bytes.`,
  },
  /** Lambda refused the event (not smaller than MAX_EVENT_BYTES) */
  eventTooLarge: {
    status: 413,
    contentType: 'application/json',
    errorType: 'BadRequestException',
    body: '{"message": "Request Too Long"}',
  },
  /** the function failed, or its response was over MAX_RESPONSE_BYTES (INTEGRATION_FAILURE) */
  internalServerError: {
    status: 502,
    contentType: 'application/json',
    errorType: 'InternalServerErrorException',
    body: '{"message": "Internal server error"}',
  },
} as const;
export type GatewayAnswer = (typeof GATEWAY_ANSWERS)[keyof typeof GATEWAY_ANSWERS];

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
  if (sources.length === 0) return { ...SECURITY_HEADERS };
  const csp = SECURITY_HEADERS['Content-Security-Policy'] ?? '';
  return { ...SECURITY_HEADERS, 'Content-Security-Policy': withConnectSources(csp, sources) };
}

/** Appends sources to a CSP's connect-src directive (adding the directive if the policy lacks it). */
export function withConnectSources(csp: string, sources: readonly string[]): string {
  if (sources.length === 0) return csp;
  const directives = csp
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '');
  const i = directives.findIndex((d) => d.startsWith('connect-src'));
  if (i === -1) directives.push(`connect-src 'self' ${sources.join(' ')}`);
  else directives[i] = `${directives[i]} ${sources.join(' ')}`;
  return directives.join('; ');
}
