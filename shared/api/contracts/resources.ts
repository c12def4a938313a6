import { z } from 'zod';
import { MSG } from '../../messages';
import { nonBlank } from './common';

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
export const resourceNameSchema = nonBlank(MSG.resourceNameRequired, 120).pipe(
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
  resourceType: z.enum(RESOURCE_TYPES),
  resourceStage: z.enum(STAGES),
  fileName: z.string().min(1).max(255),
  sizeBytes: z.number().int().positive(),
  metadataFileName: z.string().min(1).max(255).optional(),
  metadataSizeBytes: z
    .number()
    .int()
    .positive()
    .max(1024 * 1024)
    .optional(),
});
export type RequestUpload = z.infer<typeof requestUploadSchema>;

export interface RequestUploadResponse {
  uploadId: string;
  resourceUrl: string;
  metadataUrl?: string;
  expiresAt: string;
}
