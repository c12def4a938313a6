import { createHash } from 'node:crypto';
import { ConflictError } from '../../../shared/domain/errors';
import type { MetadataDigest } from '../../ports/artefact-service';
import type { BlobStore } from '../../ports/blob-store';
import type { ResourceRecord } from '../../ports/resource-repository';

/**
 * A model's stored metadata file (its package's patch config), read whole (small by configuration): by
 * generation, and by package creation for a model uploaded before its digest was recorded (decision 190).
 * Kept apart from the XML builder, so the generatePackage Lambda bundles only this.
 */

/** The file's bytes; a 409 when it is missing from storage. */
export async function readMetadata(
  blobs: BlobStore,
  bucket: string,
  resource: ResourceRecord,
): Promise<Buffer> {
  const meta = resource.metadataKey ? await blobs.get(bucket, resource.metadataKey) : null;
  if (!meta)
    throw new ConflictError(`The metadata file of resource ${resource.name} is missing from storage`);
  const chunks: Buffer[] = [];
  for await (const c of meta as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** The MetadataDigest port over object storage: reads the file once and hashes it. */
export function metadataDigestFrom(blobs: BlobStore, bucket: () => string): MetadataDigest {
  return async (resource) => {
    const bytes = await readMetadata(blobs, bucket(), resource);
    return { sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  };
}
