import { z } from 'zod';
import type { AuditPosition } from '../../ports/audit-log';

/** Where a page stopped: the last event it examined. Opaque to the SPA (base64url of this JSON). */
const cursorSchema = z.strictObject({
  pk: z.string().min(1).max(260),
  seq: z.number().int().min(1),
  at: z.string().max(40),
});

export const encodeCursor = (c: AuditPosition): string =>
  Buffer.from(JSON.stringify(c)).toString('base64url');

/** The cursor a client sent back, or null when it is not one this server made. */
export function decodeCursor(text: string): AuditPosition | null {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
