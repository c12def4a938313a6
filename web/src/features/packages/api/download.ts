import { type ApiResult, callApi, toResult } from '@/lib/api-client/api-client';
import { showServerError, showWarning } from '@/lib/popup/popup-store';

export interface DownloadedPackage {
  fileName: string;
  sizeBytes: number;
  /** what the server says the file's SHA-256 is */
  sha256: string;
  /** true when the bytes received hash to `sha256`; null when the browser cannot hash */
  verified: boolean | null;
  blob: Blob;
}

export type DownloadProgress = (fraction: number) => void;

function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The message of a storage error body (S3 answers XML: <Error><Code/><Message/></Error>) or of JSON. */
export function storageErrorMessage(status: number, text: string): string {
  const xml = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  if (xml || code) return [code, xml].filter(Boolean).join(': ');
  const fromJson = toResult(status, text);
  return fromJson.ok ? `HTTP ${status}` : fromJson.error.errorMessage;
}

/** Follows a presigned URL (no bearer token: the URL is the credential), reporting progress. */
function fetchPresigned(url: string, onProgress?: DownloadProgress): Promise<ApiResult<Blob>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.responseType = 'arraybuffer';
    xhr.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve({ ok: true, status: xhr.status, data: new Blob([xhr.response as ArrayBuffer]) });
        return;
      }
      const body = xhr.response ? new TextDecoder().decode(xhr.response as ArrayBuffer) : '';
      resolve({
        ok: false,
        status: xhr.status,
        error: { errorMessage: storageErrorMessage(xhr.status, body) },
      });
    });
    xhr.addEventListener('error', () =>
      resolve({
        ok: false,
        status: 0,
        error: { errorMessage: 'The package file could not be fetched from storage' },
      }),
    );
    xhr.send();
  });
}

async function sha256Hex(blob: Blob): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  try {
    // a view, not the buffer itself: hashes the same bytes, and works across realms (tests run in jsdom)
    const digest = await subtle.digest('SHA-256', new Uint8Array(await blob.arrayBuffer()));
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  } catch {
    return null;
  }
}

/**
 * Fetches a package's XML file and checks its SHA-256. Failures are shown here (spec §8: the response
 * body is parsed and shown in the popup): 409 "not generated yet" as a warning, anything else as an error.
 */
export async function downloadPackage(
  id: string,
  fallbackName: string,
  onProgress?: DownloadProgress,
): Promise<DownloadedPackage | null> {
  // GET /packages/{id}: the XML inline (base64) when small, a presigned URL when large (DESIGN §3)
  const result = await callApi('downloadPackage', { params: { id } }, { handle: [404, 409] });
  if (!result.ok) {
    if (result.status === 409 || result.status === 404) showWarning(result.error.errorMessage);
    return null;
  }
  const d = result.data;
  const fileName = d.fileName || `${fallbackName.replace(/[^\w.-]+/g, '_')}.xml`;
  let blob: Blob;
  if (typeof d.base64EncodedXMLPackage === 'string') {
    blob = new Blob([base64ToBytes(d.base64EncodedXMLPackage)], { type: 'application/xml' });
    onProgress?.(1);
  } else if (typeof d.downloadUrl === 'string') {
    onProgress?.(0);
    const fetched = await fetchPresigned(d.downloadUrl, onProgress);
    if (!fetched.ok) {
      showServerError(fetched.error.errorMessage);
      return null;
    }
    blob = new Blob([fetched.data], { type: 'application/xml' });
  } else {
    showServerError('The server answered without the package file');
    return null;
  }
  const expected = (d.sha256 ?? '').toLowerCase();
  const actual = expected ? await sha256Hex(blob) : null;
  return {
    fileName,
    sizeBytes: d.sizeBytes ?? blob.size,
    sha256: expected,
    verified: actual === null ? null : actual === expected,
    blob,
  };
}

/** Hands a file to the browser's download (an object URL on a temporary link). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
