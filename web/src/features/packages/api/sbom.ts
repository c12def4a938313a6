import { apiUrl, authHeaders, routePath, toResult } from '@/lib/api-client/api-client';
import { showServerError, showWarning } from '@/lib/popup/popup-store';
import { saveFile } from './download';

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  try {
    const digest = await subtle.digest('SHA-256', bytes);
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  } catch {
    return null;
  }
}

export const SBOM_DIGEST_DIFFERS =
  'The SBOM received does not hash to the SHA-256 this package pins; it was not saved.';

/**
 * The bytes a package's file route answers, or null after showing why there are none: a 404 (none) and a
 * 409 (the stored file is not the one pinned, decision 302) in the server's words, as a warning.
 */
async function fetchFileOf(routeId: 'packageSbom' | 'packageProvenanceStatement', id: string) {
  let response: Response;
  try {
    response = await fetch(apiUrl(routePath(routeId, { id })), {
      headers: { Accept: 'application/json', ...authHeaders() },
      credentials: 'same-origin',
    });
  } catch (e) {
    showServerError(`The server could not be reached (${(e as Error).message})`);
    return null;
  }
  if (!response.ok) {
    const failed = toResult(response.status, await response.text());
    const message = failed.ok ? `HTTP ${response.status}` : failed.error.errorMessage;
    if (response.status === 404 || response.status === 409) showWarning(message);
    else showServerError(message);
    return null;
  }
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * GET /packages/{id}/sbom: the pinned SBOM file, byte for byte (not JSON-parsed, so it hashes
 * as stored), checked against the package's pin before it is saved. True when saved.
 */
export async function downloadSbom(id: string, fileName: string, sha256: string): Promise<boolean> {
  const bytes = await fetchFileOf('packageSbom', id);
  if (!bytes) return false;
  const digest = await sha256Hex(bytes);
  if (digest !== null && digest !== sha256) {
    showServerError(SBOM_DIGEST_DIFFERS);
    return false;
  }
  saveFile({ blob: new Blob([bytes], { type: 'application/json' }) }, fileName);
  return true;
}

/**
 * GET /packages/{id}/provenance-statement (decision 279): the signed provenance statement of a
 * signed package, saved as the DSSE envelope `npm run verify -- --statement` reads. True when saved.
 */
export async function downloadProvenanceStatement(id: string, fileName: string): Promise<boolean> {
  const bytes = await fetchFileOf('packageProvenanceStatement', id);
  if (!bytes) return false;
  saveFile({ blob: new Blob([bytes], { type: 'application/json' }) }, fileName);
  return true;
}
