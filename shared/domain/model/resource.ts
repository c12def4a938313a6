import * as z from 'zod';
import type { ProvenanceFields } from './provenance';

/** Stage of a resource or package: codes DEV and RELEASE (spec §9); paths use them lowercased. */
export const STAGES = ['DEV', 'RELEASE'] as const;
export type Stage = (typeof STAGES)[number];
export const RESOURCE_TYPES = ['PATCH', 'MODEL'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** Allowed extensions (spec §5), compared case-insensitively. */
export const EXTENSIONS = { resourceFile: { PATCH: 'bin', MODEL: 'tflite' }, metadataFile: 'json' } as const;

export interface ResourceUser {
  id: string;
  name: string;
}

/**
 * A resource as lists return it (spec §3); with its build provenance and SBOM summary once attached
 * (PUT /resources/{id}/provenance).
 */
export interface Resource extends ProvenanceFields {
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

/**
 * Model metadata file (JSON): gives the model's name and version. A rule of the domain (a model without
 * them cannot be packaged), written as a zod schema because it parses a file's JSON.
 */
export const modelMetadataSchema = z.object({
  modelName: z.string().trim().min(1, { error: 'metadata: modelName is required' }).max(120),
  version: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(z.string().trim().min(1, { error: 'metadata: version is required' }).max(40)),
});
