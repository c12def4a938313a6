import type { HeaderField } from '@shared/domain/header/header-schema';

/**
 * Issue 25: header edits the server did not take (session ended, network down) are kept in this browser
 * (localStorage, which outlives the session and a reload) until a save succeeds, and offered back when the
 * draft's editor opens again. The server's copy is the truth: a local copy only fills the gap of the last
 * failed autosave (decision 241).
 */
export interface UnsavedHeader {
  fields: HeaderField[];
  at: string;
  reason: string;
}

const key = (packageId: string) => `frp.unsavedHeader.${packageId}`;

export function keepUnsaved(packageId: string, fields: HeaderField[], reason: string): void {
  try {
    localStorage.setItem(key(packageId), JSON.stringify({ fields, at: new Date().toISOString(), reason }));
  } catch {
    // storage full or disabled: the status beside the editor still says what was not saved
  }
}

export function readUnsaved(packageId: string): UnsavedHeader | null {
  try {
    const raw = localStorage.getItem(key(packageId));
    const parsed = raw ? (JSON.parse(raw) as UnsavedHeader) : null;
    return parsed && Array.isArray(parsed.fields) ? parsed : null;
  } catch {
    return null;
  }
}

export function dropUnsaved(packageId: string): void {
  try {
    localStorage.removeItem(key(packageId));
  } catch {
    // nothing kept
  }
}
