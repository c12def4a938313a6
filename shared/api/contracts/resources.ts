import * as z from 'zod';
import { RESOURCE_TYPES, STAGES } from '../../domain/model/resource';
import { MSG } from '../../messages';
import { visibleText } from './common';

// the resource's model lives in the domain; the API's contracts name it from here as before
export * from '../../domain/model/resource';

/** Path parameter {stage} of resource routes: 'dev' or 'release' (case-insensitive) → DEV | RELEASE. */
export const stageParamSchema = z.object({
  stage: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(STAGES, { error: "Stage must be 'dev' or 'release'" })),
});

/**
 * Query of the signing key routes (decision 295): `?stage=release` or `?stage=dev` (case-insensitive) names
 * the key of that stage; without it the release key, the one the routes always served.
 */
export const signingKeyQuerySchema = z.object({ stage: stageParamSchema.shape.stage.optional() });

/** A resource name: trimmed, 1–120 characters, letters, digits, spaces and . _ - ( ) only. */
export const resourceNameSchema = visibleText('name', 'Resource name', MSG.resourceNameRequired, 120).pipe(
  z
    .string()
    .regex(/^[\w .()-]+$/, { error: 'Resource name may contain letters, digits, spaces and . _ - ( ) only' }),
);

export const uploadQuerySchema = z.object({ name: resourceNameSchema });

export const requestUploadSchema = z.object({
  name: resourceNameSchema,
  resourceType: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(RESOURCE_TYPES, { error: "resourceType must be 'PATCH' or 'MODEL'" })),
  resourceStage: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(STAGES, { error: "resourceStage must be 'DEV' or 'RELEASE'" })),
  fileName: z.string().min(1).max(255),
  // 0 is let through so the service answers the spec's 'File size is too small'; limits come from configuration
  sizeBytes: z.number().int().nonnegative(),
  metadataFileName: z.string().min(1).max(255).optional(),
  metadataSizeBytes: z.number().int().nonnegative().optional(),
  /** a shorter validity than the server's default (seconds), for clients that upload at once */
  expiresInSeconds: z.number().int().min(1).max(3600).optional(),
});
export type RequestUpload = z.infer<typeof requestUploadSchema>;

export interface RequestUploadResponse {
  uploadId: string;
  /** presigned PUT URL of the resource file: send the bytes as the body, no extra headers */
  resourceUrl: string;
  /** presigned PUT URL of the metadata file (models only) */
  metadataUrl?: string;
  /** ISO time after which the URLs stop working and the upload can no longer be confirmed */
  expiresAt: string;
}

/** Resources up to this size upload in parts (S3 multipart: 5 MiB ≤ part ≤ 5 GiB, at most 10,000 parts). */
export const MULTIPART_MIN_PART_BYTES = 5 * 1024 * 1024;
export const MULTIPART_MAX_PARTS = 10_000;
/** part URLs asked for in one call (the browser asks again as it goes) */
export const MULTIPART_URL_BATCH = 100;

export interface StartMultipartUploadResponse {
  uploadId: string;
  /** every part but the last has exactly this size; the last has the rest */
  partSizeBytes: number;
  partCount: number;
  /** presigned PUT URL of the metadata file (models only; small, one PUT) */
  metadataUrl?: string;
  /** ISO time after which the upload can no longer be completed */
  expiresAt: string;
}

/** Presigned URLs for some parts of a multipart upload. */
export const presignPartsSchema = z.object({
  partNumbers: z
    .array(z.number().int().min(1).max(MULTIPART_MAX_PARTS))
    .min(1)
    .max(MULTIPART_URL_BATCH, `at most ${MULTIPART_URL_BATCH} part URLs per request`),
});
export type PresignParts = z.infer<typeof presignPartsSchema>;
export interface PresignPartsResponse {
  /** presigned PUT URLs: send the part's bytes as the body; the answer's ETag header is the part's ETag */
  urls: Array<{ partNumber: number; url: string }>;
  expiresAt: string;
}

/** The parts S3 holds for an upload (for resuming: send only the missing ones). */
export interface UploadPartsResponse {
  partSizeBytes: number;
  partCount: number;
  parts: Array<{ partNumber: number; sizeBytes: number; etag: string }>;
}

/** Completes a multipart upload: every part, in order, with the ETag S3 answered for it. */
export const completeMultipartSchema = z.object({
  parts: z
    .array(
      z.object({
        partNumber: z.number().int().min(1).max(MULTIPART_MAX_PARTS),
        etag: z.string().min(1).max(128),
      }),
    )
    .min(1)
    .max(MULTIPART_MAX_PARTS),
});
export type CompleteMultipart = z.infer<typeof completeMultipartSchema>;

/**
 * Where an upload stands (GET /resources/uploads/{uploadId}, decision 173). Confirm and complete answer
 * VERIFYING at once; the SHA-256 and the registration run off the request, and the browser polls:
 * - UPLOADING: not confirmed yet (bytes may still be on their way);
 * - VERIFYING: the file is being read and hashed (`verifiedBytes` of `sizeBytes`);
 * - REGISTERED: the resource exists (`resource`, JSON text, and the spec's `message`);
 * - FAILED: `errorMessage` says why; `retryable` when the same confirmation may be sent again (the file
 *   is kept), otherwise the upload is over (its bytes are removed) and `statusCode` is the refusal's.
 */
export const UPLOAD_STATES = ['UPLOADING', 'VERIFYING', 'REGISTERED', 'FAILED'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];

export interface UploadStatus {
  uploadId: string;
  state: UploadState;
  sizeBytes?: number;
  verifiedBytes?: number;
  /** REGISTERED: the resource (Resource as JSON text) and the upload message */
  resource?: string;
  message?: string;
  /** FAILED */
  errorMessage?: string;
  statusCode?: number;
  retryable?: boolean;
}

/** Path parameter {uploadId} of the upload confirmation. */
export const uploadIdParamSchema = z.object({ uploadId: z.string().min(1).max(64) });
/** Path parameter {id} of a resource (generate a package from it). */
export const resourceIdParamSchema = z.object({ id: z.string().min(1).max(64) });
