import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** the body parsed as JSON, or undefined when it is not JSON */
  json: unknown;
}

export interface RawRequest {
  method: string;
  /** sent exactly as given: no normalisation of '..', no re-encoding (fetch would do both) */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** a loopback source address such as 127.0.0.7, to act as another client */
  localAddress?: string;
  timeoutMs?: number;
}

/** One HTTP request with node:http, for inputs fetch refuses or rewrites (odd paths, GET bodies, raw bytes). */
export function rawRequest(baseUrl: string, r: RawRequest): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method: r.method,
        path: r.path,
        headers: {
          ...(r.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(r.body)) } : {}),
          ...r.headers,
        },
        localAddress: r.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(r.timeoutMs ?? 60_000, () => req.destroy(new Error(`${r.method} ${r.path} timed out`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

/** The string errorMessage of an error body, or undefined when the body is not `{ errorMessage: string }`. */
export function errorMessageOf(res: RawResponse): string | undefined {
  const body = res.json as { errorMessage?: unknown } | undefined;
  return body && typeof body === 'object' && typeof body.errorMessage === 'string'
    ? body.errorMessage
    : undefined;
}
