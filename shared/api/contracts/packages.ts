import * as z from 'zod';
import { PACKAGE_TYPES } from '../../domain/model/package';
import { SEATS } from '../../domain/seats';
import { DELETION_REASON_REQUIRED, SIGNATURE_PASSWORD_REQUIRED } from '../../domain/signature-meanings';
import { MSG } from '../../messages';
import { visibleText } from './common';
import { passkeyProofSchema } from './passkeys';

// the package's model lives in the domain; the API's contracts name it from here as before
export * from '../../domain/model/package';
export const generatePackageSchema = z.object({
  packageName: visibleText('name', 'Package name', 'Package name is required', 120),
  packageType: z.enum(PACKAGE_TYPES, {
    error: 'packageType must be DEV_UNSIGNED, DEV_SIGNED, RELEASE_UNSIGNED or RELEASE_SIGNED',
  }),
  note: visibleText('note', 'Note', MSG.packageNoteRequired, 2000),
  /** start from an earlier package: its header values and DCC choice are copied */
  fromPackageId: z.string().min(1, { error: 'fromPackageId is empty' }).max(64).optional(),
  /**
   * header as code: the header in the readable form the editor shows ({ "fields": [{ "name",
   * "value" }] }, decimal or 0x hex, option labels, criteria lists), checked by the editor's rules before
   * the draft exists; a bad one creates nothing and names every field at fault
   */
  header: z.unknown().optional(),
});
export type GeneratePackage = z.infer<typeof generatePackageSchema>;

/** step 1 of a draft again (Back to step 1, then Continue): its name, type (sign flag) and note. */
export const updateDraftSchema = generatePackageSchema.omit({ fromPackageId: true });
export type UpdateDraft = z.infer<typeof updateDraftSchema>;

export const notifySchema = z.object({
  approvers: z
    .array(z.object({ role: z.string(), id: z.string().min(1) }), {
      error: 'approvers must be a list of { role, id }',
    })
    .min(1, { error: 'Choose one approver per role' })
    .max(10),
  signer: z.string().min(1).optional(),
});
export type NotifyRequest = z.infer<typeof notifySchema>;

/** Body of the reject calls: the reason under 'rejection-reason' (spec §7). */
export const rejectSchema = z.object({
  'rejection-reason': visibleText('note', 'Rejection reason', 'A rejection reason is required', 2000),
});

/**
 * The signer's password, re-entered at each deciding call (21 CFR Part 11 §11.200, decision 141): approve,
 * reject, sign, reject signing, deliver / re-deliver, delivery approve and delivery reject carry it.
 */
export const signaturePasswordSchema = z.object({
  password: z
    .string({ error: SIGNATURE_PASSWORD_REQUIRED })
    .min(1, { error: SIGNATURE_PASSWORD_REQUIRED })
    .max(1024, { error: 'password is too long' }),
});
export type SignaturePassword = z.infer<typeof signaturePasswordSchema>;

/**
 * What proves the signer at a deciding call (decisions 141, 322): exactly one of the password, a passkey
 * assertion with user verification (`passkey`: the ceremony of POST /passkeys/signature-options and the
 * browser's answer) or a one-time ticket of a fresh sign-in at the company's identity provider
 * (`reauthTicket`). None is the 400 that asks for the password, as before passkeys.
 */
export const signatureProofShape = {
  password: signaturePasswordSchema.shape.password.optional(),
  reauthTicket: z
    .string({ error: 'reauthTicket must be the ticket of a fresh company sign-in' })
    .min(1, { error: 'reauthTicket must be the ticket of a fresh company sign-in' })
    .max(200, { error: 'reauthTicket must be the ticket of a fresh company sign-in' })
    .optional(),
  passkey: passkeyProofSchema.optional(),
};
export const signatureProofSchema = z.object(signatureProofShape).superRefine(oneProof);
export type SignatureProof = z.infer<typeof signatureProofSchema>;

/** Exactly one proof: none asks for the password (the text of decision 141), several are refused. */
export function oneProof(
  b: Partial<Record<keyof typeof signatureProofShape, unknown>>,
  ctx: z.RefinementCtx,
) {
  const given = [b.password, b.reauthTicket, b.passkey].filter((x) => x !== undefined).length;
  if (given === 0) ctx.addIssue({ code: 'custom', message: SIGNATURE_PASSWORD_REQUIRED });
  else if (given > 1)
    ctx.addIssue({
      code: 'custom',
      message: 'Sign with one of password, passkey or reauthTicket, not several',
    });
}

/**
 * Body of DELETE /admin/packages (spec §7: a list of ids): the bare list, or
 * `{ ids, password, reason }` — deleting a package in flight is an electronic signature (decision 196).
 */
export const packageDeletionSchema = z
  .union(
    [
      z.array(z.string()).transform((ids) => ({ ids })),
      z.object({
        ids: z.array(z.string()),
        password: z.unknown().optional(),
        passkey: z.unknown().optional(),
        reauthTicket: z.unknown().optional(),
        reason: z.unknown().optional(),
      }),
    ],
    {
      error:
        'Send the ids to delete as a JSON list, or as { "ids": [...], "password": "...", "reason": "..." }',
    },
  )
  .pipe(
    z.object({
      ids: z
        .array(z.string().min(1).max(64))
        .min(1, { error: 'Select at least one item' })
        .max(100, { error: 'At most 100 items can be deleted at once' }),
      ...signatureProofShape,
      reason: visibleText('note', 'Reason', DELETION_REASON_REQUIRED, 2000).optional(),
    }),
  )
  .superRefine((b, ctx) => {
    // a signed deletion carries one proof (decision 322); an unsigned one (nothing in flight) none
    if ([b.password, b.passkey, b.reauthTicket].filter((x) => x !== undefined).length > 1)
      ctx.addIssue({
        code: 'custom',
        message: 'Sign with one of password, passkey or reauthTicket, not several',
      });
  });
export type PackageDeletionRequest = z.infer<typeof packageDeletionSchema>;

/**
 * The comparison the deciding page showed (decision 266): the `digest` of GET
 * /packages/{id}/changes. Optional (API clients); when sent, a comparison that changed since is refused (409).
 */
export const changesSeenSchema = z.object({
  changesSeen: z
    .string({ error: 'changesSeen must be the digest of the changes the page showed' })
    .regex(/^[0-9a-f]{64}$/, { error: 'changesSeen must be the digest of the changes the page showed' })
    .optional(),
});
/** Body of approve, sign and approve delivery: the signature's proof, and the comparison seen. */
export const signedDecisionSchema = z
  .object({ ...signatureProofShape, ...changesSeenSchema.shape })
  .superRefine(oneProof);
/** Body of the reject calls, signed: the reason and the proof (and the comparison seen). */
export const signedRejectSchema = rejectSchema
  .extend(signatureProofShape)
  .extend(changesSeenSchema.shape)
  .superRefine(oneProof);
/** Body of deliver / re-deliver: the delivery approvers and the proof. */
export const signedNotifySchema = notifySchema.extend(signatureProofShape).superRefine(oneProof);

/** Body of POST /packages/{id}/reassign (decision 351): whose place, to whom, why, and the proof. */
export const reassignSchema = z
  .object({
    seat: z.enum(SEATS, { error: `seat must be one of ${SEATS.join(', ')}` }),
    from: z.string({ error: 'from must be the id of the person whose place is reassigned' }).min(1).max(64),
    to: z.string({ error: 'to must be the id of the person who takes the place' }).min(1).max(64),
    reason: visibleText('note', 'Reason', 'A reason is required: say why the place is reassigned', 2000),
    ...signatureProofShape,
  })
  .superRefine(oneProof);
export type ReassignRequest = z.infer<typeof reassignSchema>;

/** Body of POST /packages/{id}/withdraw (decision 351): why, and the proof. */
export const withdrawSchema = z
  .object({
    reason: visibleText('note', 'Reason', 'A reason is required: say why the package is withdrawn', 2000),
    ...signatureProofShape,
  })
  .superRefine(oneProof);
export type WithdrawRequest = z.infer<typeof withdrawSchema>;

/** A person the package waits on who left their role, as the API answers it (shared/domain/departures.ts). */
export const departureSchema = z.object({
  seat: z.enum(SEATS),
  userId: z.string(),
  name: z.string(),
  role: z.string(),
  why: z.enum(['deleted', 'roleChanged', 'notGranted']),
  text: z.string().meta({
    description:
      'the sentence the portal shows, e.g. "waits for … who no longer holds that role: reassign or withdraw"',
  }),
});

/** The proof of a deciding call's body, without the call's other fields. */
export const proofOf = (b: SignatureProof): SignatureProof => ({
  ...(b.password !== undefined ? { password: b.password } : {}),
  ...(b.reauthTicket !== undefined ? { reauthTicket: b.reauthTicket } : {}),
  ...(b.passkey !== undefined ? { passkey: b.passkey } : {}),
});

export const APPROVE_OUTCOMES = [
  'GENERATED',
  'GENERATING',
  'WAITING_FOR_APPROVALS',
  'WAITING_FOR_SIGNING',
  'DELIVERED',
] as const;
export type ApproveOutcome = (typeof APPROVE_OUTCOMES)[number];

/** Path parameter {id} of package routes. */
export const packageIdParamSchema = z.object({ id: z.string().min(1).max(64) });
export const attachDccParamSchema = z.object({
  id: z.string().min(1).max(64),
  dccId: z.string().min(1).max(64),
});

const lowerStage = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.object({
    stage: z
      .string()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(values, { error: message })),
  });

/** GET /{stage}/packages: dev or release. */
export const packageListParamSchema = lowerStage(
  ['DEV', 'RELEASE'] as const,
  "Stage must be 'dev' or 'release'",
);
/** GET /{stage}/packages/approval: dev, release or deliver. */
export const approvalListParamSchema = lowerStage(
  ['DEV', 'RELEASE', 'DELIVER'] as const,
  "Stage must be 'dev', 'release' or 'deliver'",
);

// the package lists' paging and list-view queries (decisions 050, 210, 260) live in package-lists.ts
export * from './package-lists';

export const approversQuerySchema = z.object({
  signers: z.enum(['true', 'false'], { error: "signers must be 'true' or 'false'" }).optional(),
});

/**
 * GET /resources/{id}/package-sources?deviceId=: also offer the packages whose DCC copy names this
 * DCC device id exactly (a new resource has no device of its own yet). Same rules as a DCC's Device ID.
 */
export const packageSourcesQuerySchema = z.object({
  deviceId: visibleText('name', 'deviceId', 'deviceId must not be blank', 64).optional(),
});

/** PATCH /packages/{id}/header: the header as JSON text (spec §7) or as an object. */
export const headerBodySchema = z.object({
  header: z.union([z.string().max(200_000), z.record(z.string(), z.unknown())], {
    error: 'header is required',
  }),
});
