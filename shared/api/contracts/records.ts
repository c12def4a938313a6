import * as z from 'zod';
import { ROLES } from '../../domain/roles';
import { deletionProposalSchema } from './common';
import { type Dcc, TELEMETRY_TYPES } from './dcc';
import {
  type ApproverEntry,
  type CopiedFrom,
  type Generation,
  PACKAGE_STATUSES,
  PACKAGE_TYPES,
  type Package,
  type PackageDccValues,
  type PackageResourceFile,
  type PackageSource,
  type UserRef,
} from './packages';
import { provenanceRecordSchema, sbomSummarySchema } from './provenance';
import { RESOURCE_TYPES, type Resource, STAGES } from './resources';

/**
 * The records the API sends as JSON text (spec §3: a package, a resource, a DCC, lists of them), as zod
 * schemas the SPA parses them with at its edge (decision 238): a text that does not hold what
 * its contract says is an answer the client cannot read, never a value cast into a type. Each schema is
 * checked against its interface below, both ways, so neither can gain or lose a field alone.
 */
export const userRefSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  userRole: z.enum(ROLES),
});

const approverEntrySchema = z.object({
  user: userRefSchema,
  role: z.enum(ROLES),
  approved: z.boolean(),
  rejected: z.boolean(),
  rejectionNote: z.string().optional(),
  decidedAt: z.string().optional(),
  meaning: z.string().optional(),
});

const resourceFileSchema = z.object({
  fileName: z.string(),
  sizeBytes: z.number(),
  sha256: z.string(),
  modelName: z.string().optional(),
  modelVersion: z.string().optional(),
  metadataSizeBytes: z.number().optional(),
  metadataSha256: z.string().optional(),
  provenance: provenanceRecordSchema.optional(),
  sbom: sbomSummarySchema.optional(),
});

const dccValuesSchema = z.object({
  deviceId: z.string(),
  telemetryType: z.enum(TELEMETRY_TYPES),
  messageLimit: z.number(),
  deviceLimit: z.number(),
});

const generationSchema = z.object({
  jobId: z.string(),
  state: z.enum(['RUNNING', 'FAILED']),
  from: z.enum(PACKAGE_STATUSES),
  requestedBy: userRefSchema,
  requestedAt: z.string(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
  reason: z.string().optional(),
  failedAt: z.string().optional(),
});

const copiedFromSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(PACKAGE_STATUSES),
  fields: z.array(z.string()),
  dcc: z.object({ dccId: z.string(), deviceId: z.string(), telemetryType: z.string() }).optional(),
});

/** an earlier package a new one may start from (GET /resources/{id}/package-sources). */
export const packageSourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(PACKAGE_STATUSES),
  type: z.enum(PACKAGE_TYPES),
  createdAt: z.string(),
  updatedAt: z.string(),
  initiatorName: z.string(),
  deviceId: z.string().optional(),
  match: z.enum(['resource', 'device']).optional(),
});

export const packageSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(PACKAGE_TYPES),
  status: z.enum(PACKAGE_STATUSES),
  resourceId: z.string(),
  resourceName: z.string(),
  resourceType: z.enum(RESOURCE_TYPES),
  resourceStage: z.enum(STAGES),
  initiator: userRefSchema,
  uploadTime: z.string(),
  note: z.string(),
  signed: z.boolean(),
  dccId: z.string().optional(),
  resourceFile: resourceFileSchema.optional(),
  dcc: dccValuesSchema.optional(),
  copiedFrom: copiedFromSchema.optional(),
  signer: userRefSchema.optional(),
  deliverer: userRefSchema.optional(),
  rejectionNote: z.string().optional(),
  linkToS3: z.string().optional(),
  mLifePath: z.string().optional(),
  generation: generationSchema.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  approvers: z.array(approverEntrySchema),
  deliveryApprovers: z.array(approverEntrySchema),
  mailFailures: z
    .array(z.object({ to: z.string(), subject: z.string(), reason: z.string(), at: z.string() }))
    .optional(),
  deletionProposal: deletionProposalSchema.optional(),
});

export const resourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  resourceStage: z.enum(STAGES),
  resourceType: z.enum(RESOURCE_TYPES),
  uploadTime: z.string(),
  uploadedBy: z.object({ id: z.string(), name: z.string() }),
  fileName: z.string(),
  sizeBytes: z.number(),
  sha256: z.string(),
  modelName: z.string().optional(),
  modelVersion: z.string().optional(),
  provenance: provenanceRecordSchema.optional(),
  sbom: sbomSummarySchema.optional(),
});

export const dccSchema = dccValuesSchema.extend({
  id: z.string(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), name: z.string() }),
});

export const approverCandidatesSchema = z.partialRecord(z.enum(ROLES), z.array(userRefSchema));

// ── each schema describes exactly its interface (a compile error otherwise) ───────────────────────────
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <_T extends true>() => undefined;
same<Same<z.output<typeof userRefSchema>, UserRef>>();
same<Same<z.output<typeof approverEntrySchema>, ApproverEntry>>();
same<Same<z.output<typeof resourceFileSchema>, PackageResourceFile>>();
same<Same<z.output<typeof dccValuesSchema>, PackageDccValues>>();
same<Same<z.output<typeof generationSchema>, Generation>>();
same<Same<z.output<typeof packageSchema>, Package>>();
same<Same<z.output<typeof copiedFromSchema>, CopiedFrom>>();
same<Same<z.output<typeof packageSourceSchema>, PackageSource>>();
same<Same<z.output<typeof resourceSchema>, Resource>>();
same<Same<z.output<typeof dccSchema>, Dcc>>();
