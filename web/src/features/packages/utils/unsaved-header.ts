import { type HeaderField, headerFieldSchema } from '@shared/domain/header/header-schema';
import { z } from 'zod';

/**
 * header edits the server did not take (session ended, network down) are kept in this browser
 * (localStorage, which outlives the session and a reload) until a save succeeds, and offered back when the
 * draft's editor opens again. The server's copy is the truth: a local copy only fills the gap of the last
 * failed autosave (decision 241).
 */
export interface UnsavedHeader {
  fields: HeaderField[];
  at: string;
  reason: string;
}
/** The kept copy as read back: written by an older build or edited by hand, it must still be a header. */
const unsavedHeaderSchema = z.object({
  fields: z.array(headerFieldSchema),
  at: z.string(),
  reason: z.string(),
}) satisfies z.ZodType<UnsavedHeader>;

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
    if (!raw) return null;
    const parsed = unsavedHeaderSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
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
