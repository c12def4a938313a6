/** Build-time settings of the web app (Vite replaces import.meta.env at build time). */
export const env = {
  /** Base of every API call: same origin, API Gateway stage `dev` (spec §7). */
  apiBase: import.meta.env.VITE_API_BASE ?? '/dev',
  /** Spec §7: fixed sample data replaces the calls in mock mode (`npm run dev:mock` or VITE_MOCK=true). */
  mock: import.meta.env.VITE_MOCK === 'true' || import.meta.env.MODE === 'mock',
  /** Spec §9: the script chunk load time-out. */
  chunkLoadTimeoutMs: 120_000,
  /**
   * Files (together) above this go to S3 by presigned URL. API Gateway base64-encodes a multipart body
   * into the Lambda event and Lambda refuses events of 6 MiB or more, so about 4.4 MiB is the most a
   * direct upload can carry; 4 MiB leaves room for the headers CloudFront adds (decision 091).
   */
  directUploadMaxBytes: 4 * 1024 * 1024,
} as const;
