import * as z from 'zod';
import { MSG } from '../../messages';
import { visibleText } from './common';

/** Stage of a resource or package: codes DEV and RELEASE (spec §9); paths use them lowercased. */
export const STAGES = ['DEV', 'RELEASE'] as const;
export type Stage = (typeof STAGES)[number];
export const RESOURCE_TYPES = ['PATCH', 'MODEL'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** Path parameter {stage} of resource routes: 'dev' or 'release' (case-insensitive) → DEV | RELEASE. */
export const stageParamSchema = z.object({
  stage: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(STAGES, { error: "Stage must be 'dev' or 'release'" })),
});

/** A resource name: trimmed, 1–120 characters, letters, digits, spaces and . _ - ( ) only. */
export const resourceNameSchema = visibleText('name', 'Resource name', MSG.resourceNameRequired, 120).pipe(
  z
    .string()
    .regex(/^[\w .()-]+$/, { error: 'Resource name may contain letters, digits, spaces and . _ - ( ) only' }),
);

export const uploadQuerySchema = z.object({ name: resourceNameSchema });

/** Allowed extensions (spec §5), compared case-insensitively. */
export const EXTENSIONS = { resourceFile: { PATCH: 'bin', MODEL: 'tflite' }, metadataFile: 'json' } as const;

/** Model metadata file (JSON): gives the model's name and version. */
export const modelMetadataSchema = z.object({
  modelName: z.string().trim().min(1, { error: 'metadata: modelName is required' }).max(120),
  version: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(z.string().trim().min(1, { error: 'metadata: version is required' }).max(40)),
});

export interface ResourceUser {
  id: string;
  name: string;
}

/** A resource as lists return it (spec §3). */
export interface Resource {
  id: string;
  name: string;
  resourceStage: Stage;
  resourceType: ResourceType;
  /** 'YYYY-MM-DD HH:MM:SS' UTC */
  uploadTime: string;
  uploadedBy: ResourceUser;
  fileName: string;
  sizeBytes: number;
  sha256: string;
  modelName?: string;
  modelVersion?: string;
}

/** Request for presigned upload URLs (files above the API's 10 MB request limit). */
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

/** Path parameter {uploadId} of the upload confirmation. */
export const uploadIdParamSchema = z.object({ uploadId: z.string().min(1).max(64) });
/** Path parameter {id} of a resource (generate a package from it). */
export const resourceIdParamSchema = z.object({ id: z.string().min(1).max(64) });
