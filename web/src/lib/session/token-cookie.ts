/**
 * The bearer token lives in a cookie (spec §3, §9): Secure, SameSite=Strict, path /. Browsers accept
 * Secure cookies on http://localhost, so the local stack works without TLS.
 */
const NAME = 'token';

export function getToken(): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === NAME) {
      const value = decodeURIComponent(rest.join('='));
      return value === '' ? null : value;
    }
  }
  return null;
}

export function setToken(token: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the spec keeps the token in a cookie; the Cookie Store API is not in every browser
  document.cookie = `${NAME}=${encodeURIComponent(token)}; Path=/; Secure; SameSite=Strict`;
}

export function removeToken(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: as above
  document.cookie = `${NAME}=; Path=/; Secure; SameSite=Strict; Max-Age=0`;
}
