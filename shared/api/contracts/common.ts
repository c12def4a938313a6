import * as z from 'zod';
import { normalizeName, normalizeNote, type TextKind, textProblem } from '../../domain/text-rules';

/** Trimmed text that must not be blank; `message` is what the user is told. */
export const nonBlank = (message: string, max = 200) =>
  z
    .string({ error: message })
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, { error: message })
        .max(max, { error: `At most ${max} characters are allowed` }),
    );

/**
 * Like nonBlank, for names and notes people type: control, bidirectional and invisible characters are
 * refused with a message naming the field (shared/domain/text-rules.ts), then the text is trimmed and
 * normalised (NFC; notes also CRLF → LF), so uniqueness checks compare what people see.
 */
export const visibleText = (kind: TextKind, label: string, message: string, max = 200) =>
  z
    .string({ error: message })
    .superRefine((s, ctx) => {
      const problem = textProblem(label, s, kind);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((s) => (kind === 'note' ? normalizeNote(s) : normalizeName(s)).trim())
    .pipe(
      z
        .string()
        .min(1, { error: message })
        .max(max, { error: `At most ${max} characters are allowed` }),
    );

export const emailField = (message: string) =>
  z
    .string({ error: message })
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.email({ error: message }).max(254, { error: message }));

/** A list of ids, sent either as a bare JSON array or as { ids: [...] } (spec §7: "list of ids in the body"). */
export const idListSchema = z
  .union([z.array(z.string()), z.object({ ids: z.array(z.string()) }).transform((o) => o.ids)], {
    error: 'Send the ids to delete as a JSON list',
  })
  .pipe(
    z
      .array(z.string().min(1).max(64))
      .min(1, { error: 'Select at least one item' })
      .max(100, { error: 'At most 100 items can be deleted at once' }),
  );
export type IdList = z.infer<typeof idListSchema>;

/** In the admin lists: a deletion one admin proposed, waiting for a second admin (decision 336). */
export const deletionProposalSchema = z.object({
  proposedBy: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  proposedAt: z.string(),
  expiresAt: z.string(),
  reason: z.string(),
});
