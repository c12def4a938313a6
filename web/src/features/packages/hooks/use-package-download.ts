import type { Package } from '@shared/api/contracts/packages';
import { useCallback, useState } from 'react';
import { showServerError } from '@/lib/popup/popup-store';
import { type DownloadedPackage, downloadPackage, saveFile } from '../api/download';

export interface PackageDownload {
  /** 0..100 while a file is being fetched, null otherwise */
  progress: number | null;
  /** the last file saved */
  saved: DownloadedPackage | null;
  start: () => Promise<void>;
}

/**
 * Download of a package's XML file, named after the package (spec §2.8, §7). The bytes are checked
 * against the server's SHA-256 before they are saved: a damaged file is never handed to the user.
 */
export function usePackageDownload(pkg: Pick<Package, 'id' | 'name'> | null): PackageDownload {
  const [progress, setProgress] = useState<number | null>(null);
  const [saved, setSaved] = useState<DownloadedPackage | null>(null);

  const start = useCallback(async () => {
    if (!pkg) return;
    setProgress(0);
    const file = await downloadPackage(pkg.id, pkg.name, (fraction) => setProgress(fraction * 100));
    setProgress(null);
    if (!file) return;
    if (file.verified === false) {
      showServerError(
        `The downloaded file ${file.fileName} does not match its SHA-256 checksum and was not saved. Try again.`,
      );
      return;
    }
    saveFile(file.file, file.fileName);
    setSaved(file);
  }, [pkg]);

  return { progress, saved, start };
}
