import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which address a request comes from, for limits per source (docs/decisions/075-real-client-source.md).
 *
 * - Behind CloudFront, API Gateway's `sourceIp` is an edge server many users share. CloudFront sends the
 *   viewer's own address as `CloudFront-Viewer-Address: ip:port` (origin request policy of `/dev/*`), and
 *   a secret header (`X-Frp-Origin-Verify`) set on the origin proves the request passed CloudFront.
 * - Without that proof (a direct call to API Gateway, the local server) the header is forged or absent:
 *   `sourceIp` is the client itself (API Gateway's TCP peer, the local server's socket address).
 * - `X-Forwarded-For` is never read: any client can write it.
 */
export const VIEWER_ADDRESS_HEADER = 'CloudFront-Viewer-Address';
export const ORIGIN_VERIFY_HEADER = 'X-Frp-Origin-Verify';
/**
 * 'true' on every route function in AWS: a request without the origin-verify secret is refused with 403
 * (lambdas/middleware/origin-verify.ts, docs/decisions/208). The local stack sets it only when asked to.
 */
export const ORIGIN_VERIFY_REQUIRED_ENV = 'ORIGIN_VERIFY_REQUIRED';

/** The IP of a `CloudFront-Viewer-Address` value ("198.51.100.10:46532", "2001:db8::1:46532"), or null. */
export function parseViewerAddress(value: string | undefined): string | null {
  if (!value) return null;
  const cut = value.trim().lastIndexOf(':');
  if (cut <= 0) return null;
  const port = value.trim().slice(cut + 1);
  if (!/^\d{1,5}$/.test(port)) return null;
  const ip = value
    .trim()
    .slice(0, cut)
    .replace(/^\[(.*)\]$/, '$1');
  return isIPv4(ip) || isIPv6(ip) ? ip : null;
}

/** The 8 groups of an IPv6 address as numbers (the address must be valid). */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split('%')[0] ?? '';
  // an embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const [a, b, c, d] = v4[1].split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...zeros, ...t].map((g) => Number.parseInt(g, 16));
}

/**
 * The key of a source for rate limits: an IPv4 address as is; an IPv6 address by its /64 network (one
 * subscriber's link, within which a client picks addresses freely); an IPv4-mapped IPv6 address as IPv4.
 */
export function sourceKey(ip: string): string {
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return ip.trim().toLowerCase() || 'unknown';
  const g = ipv6Groups(ip);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)
    return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}

/**
 * The client's source key for one request: the CloudFront viewer address when the origin-verify header
 * carries the expected secret, otherwise the request context's source IP.
 */
export function clientSourceOf(input: {
  sourceIp: string | undefined;
  viewerAddress: string | undefined;
  originVerified: boolean;
}): string {
  const viewer = input.originVerified ? parseViewerAddress(input.viewerAddress) : null;
  return sourceKey(viewer ?? input.sourceIp ?? 'unknown');
}
