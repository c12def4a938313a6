import type * as z from 'zod';
import { MSG } from '../messages';
import { BadRequestError, NotAcceptableError, PayloadTooLargeError } from './errors';
import { EXTENSIONS, modelMetadataSchema, type ResourceType, type Stage } from './model/resource';

/**
 * Pure rules of resource uploads (spec §5 Upload, DESIGN §4): file kinds, sizes and content checks.
 * They throw the typed errors the API answers with; nothing here touches storage.
 */

/** Server texts of resource calls that the spec does not word (spec texts stay in shared/messages.ts). */
export const RESOURCE_ERR = {
  notMultipart: 'Send the files as multipart/form-data',
  malformedMultipart: 'The upload could not be read as multipart/form-data',
  missingResourceFile: (ext: string) => `Choose a resource file (.${ext})`,
  missingMetadataFile: 'A model needs its metadata file (.json)',
  metadataNotForPatch: 'A patch takes no metadata file',
  duplicateField: (field: string) => `Send one ${field} only`,
  unexpectedFile: (field: string) =>
    `Unexpected file field '${field}': send resourceFile and, for models, metadataFile`,
  notTflite: 'The model file is not a TensorFlow Lite model (no TFL3 identifier)',
  metadataNotJson: (reason: string) => `The metadata file is not valid JSON: ${reason}`,
  metadataNotObject: 'The metadata file must hold a JSON object with modelName and version',
  uploadNotFound: 'Upload not found or expired; request a new upload',
  uploadNotOwner: 'Only the user who requested this upload can confirm it',
  uploadBusy: 'This upload is being confirmed already',
  uploadNotYours: 'Only the user who requested this upload can see it',
  notUploaded: (what: string) => `The ${what} was not uploaded to its URL; request a new upload`,
  sizeMismatch: (what: string, got: number, declared: number) =>
    `The uploaded ${what} has ${got} bytes but ${declared} were declared`,
  resourceNotFound: (ids: string[]) => `No resource with id ${ids.join(', ')}`,
  stillReferenced: (uses: string) =>
    `Resources still used by packages cannot be deleted (traceability); delete the packages first: ${uses}`,
} as const;

export type FileField = 'resourceFile' | 'metadataFile';

/** The lowercased extension of a file name without the dot ('' when there is none). */
export function extensionOf(fileName: string): string {
  const base = baseName(fileName);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The last path segment of a client-sent file name (browsers may send a full path). */
export function baseName(fileName: string): string {
  const parts = fileName.split(/[\\/]/);
  return (parts[parts.length - 1] ?? '').trim();
}

/** A file name safe inside an S3 key: its base name, with characters outside [\w.()- ] replaced. */
export function safeFileName(fileName: string): string {
  const cleaned = baseName(fileName)
    .replace(/[^\w.() -]/g, '_')
    .slice(-200);
  return cleaned === '' || /^\.+$/.test(cleaned) ? 'file' : cleaned;
}

/** The extension a field accepts for a resource type: bin (patch), tflite (model), json (metadata). */
export function expectedExtension(field: FileField, type: ResourceType): string {
  return field === 'resourceFile' ? EXTENSIONS.resourceFile[type] : EXTENSIONS.metadataFile;
}

/** Refuses a file whose extension does not fit the field (case-insensitive), with 400. */
export function checkExtension(field: FileField, type: ResourceType, fileName: string): void {
  const want = expectedExtension(field, type);
  if (extensionOf(fileName) !== want) {
    const what = field === 'metadataFile' ? 'model metadata' : type === 'PATCH' ? 'patch' : 'model';
    throw new BadRequestError(
      `${MSG.fileTypeNotSupported}: '${baseName(fileName)}' — a ${what} file must end in .${want}`,
    );
  }
}

/** Megabytes as the spec counts them (bytes / 1,000,000), for messages. */
export function megabytes(bytes: number): string {
  const mb = bytes / 1_000_000;
  return `${mb >= 10 ? Math.round(mb) : Number(mb.toFixed(3))} MB`;
}

/** Refuses an empty file (406) or one above the configured limit (413). */
export function checkSize(field: FileField, sizeBytes: number, maxBytes: number): void {
  if (sizeBytes <= 0) throw new NotAcceptableError(MSG.fileTooSmall);
  if (sizeBytes > maxBytes) {
    const what = field === 'metadataFile' ? 'metadata file' : 'resource file';
    throw new PayloadTooLargeError(
      `${MSG.fileTooBig}: the ${what} has ${megabytes(sizeBytes)}, at most ${megabytes(maxBytes)} are accepted`,
    );
  }
}

/** Bytes 4..8 of a TFLite flatbuffer hold the file identifier 'TFL3'. */
export const TFLITE_IDENTIFIER = 'TFL3';
export const TFLITE_HEAD_BYTES = 8;

/** True when the first bytes of a file carry the TFLite identifier at offset 4. */
export function hasTfliteIdentifier(head: Uint8Array): boolean {
  if (head.length < TFLITE_HEAD_BYTES) return false;
  return String.fromCharCode(...head.subarray(4, 8)) === TFLITE_IDENTIFIER;
}

/** Refuses a model file without the TFLite identifier, with 406. */
export function checkTflite(head: Uint8Array): void {
  if (!hasTfliteIdentifier(head)) throw new NotAcceptableError(RESOURCE_ERR.notTflite);
}

export interface ModelMetadata {
  modelName: string;
  modelVersion: string;
}

/** Reads a metadata file: JSON with modelName and version (becoming modelName/modelVersion), else 406. */
export function parseModelMetadata(bytes: Uint8Array): ModelMetadata {
  // TextDecoder, not Buffer: shared/ also runs in the browser; it drops a leading BOM (Windows editors)
  const text = new TextDecoder('utf-8').decode(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new NotAcceptableError(RESOURCE_ERR.metadataNotJson((e as Error).message));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new NotAcceptableError(RESOURCE_ERR.metadataNotObject);
  }
  const r = modelMetadataSchema.safeParse(value);
  if (!r.success) throw new NotAcceptableError(metadataIssue(r.error));
  return { modelName: r.data.modelName, modelVersion: r.data.version };
}

/** A model held in memory, checked whole: its file's TFLite identifier first, then its metadata file. */
export function checkModel(file: Uint8Array, metadata: Uint8Array): ModelMetadata {
  checkTflite(file);
  return parseModelMetadata(metadata);
}

/** Every problem of the metadata file at once, one per field (not only the first). */
export function metadataIssue(error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const field = String(issue.path[0] ?? '');
    return issue.message.startsWith('metadata:')
      ? issue.message
      : `metadata: ${field || 'content'} is missing or invalid`;
  });
  return `The metadata file is not usable: ${[...new Set(problems)].join('; ')}`;
}

/** Upload time as lists show it: 'YYYY-MM-DD HH:MM:SS' in UTC (spec §3). */
export function formatUploadTime(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

/** The byTypeStage index key of a resource, e.g. 'PATCH#DEV'. */
export function typeStageKey(type: ResourceType, stage: Stage): string {
  return `${type}#${stage}`;
}

/** The name claim key: names are unique regardless of case and surrounding spaces. */
export function nameClaimKey(name: string): string {
  return `NAME#${name.trim().toLowerCase()}`;
}
