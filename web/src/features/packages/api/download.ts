import { callApi } from '@/lib/api-client/api-client';
import { showServerError, showWarning } from '@/lib/popup/popup-store';

export interface DownloadedPackage {
  fileName: string;
  sizeBytes: number;
  /** what the server says the file's SHA-256 is */
  sha256: string;
  /** true when the bytes received hash to `sha256`; null when the browser cannot hash (or never held them) */
  verified: boolean | null;
  /** the file's bytes (a small package, answered inline), or where the browser downloads it itself */
  file: { blob: Blob } | { url: string };
}

export type DownloadProgress = (fraction: number) => void;

function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
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
 * Fetches a small package's XML file and checks its SHA-256; a large one's presigned URL is handed on. Failures are shown here (spec §8: the response
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
    // a large package (up to 10 GiB): the browser downloads the presigned URL itself, straight to disk
    // Fetched into memory it was held several times over; the URL's Content-Disposition names
    // the file. The browser never holds the bytes, so it cannot hash them: the SHA-256 is shown to check.
    onProgress?.(1);
    return {
      fileName,
      sizeBytes: d.sizeBytes ?? 0,
      sha256: (d.sha256 ?? '').toLowerCase(),
      verified: null,
      file: { url: d.downloadUrl },
    };
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
    file: { blob },
  };
}

/**
 * Hands a file to the browser's download on a temporary link: the bytes by an object URL, or a presigned
 * URL that the browser then downloads itself, streaming to disk.
 */
export function saveFile(file: DownloadedPackage['file'], fileName: string): void {
  const url = 'blob' in file ? URL.createObjectURL(file.blob) : file.url;
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  if ('blob' in file) setTimeout(() => URL.revokeObjectURL(url), 0);
}
