import type { Resource } from '../../shared/api/contracts/resources';

/** A stored resource: the list fields plus where its bytes are. */
export interface ResourceRecord extends Resource {
  /** S3 key of the resource file in the resources bucket */
  objectKey: string;
  /** S3 key of the model metadata file, for models */
  metadataKey?: string;
  createdAt: string;
}

export interface ResourceRepository {
  getById(id: string): Promise<ResourceRecord | null>;
}
