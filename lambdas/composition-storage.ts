import { S3BlobStore } from './adapters/s3/blob-store';
import { provideBlobStore } from './composition';

/**
 * Plugs S3 object storage into the composition root. Imported for this effect by the handlers of routes
 * whose row `uses` a bucket, so only their Lambdas bundle the S3 client (docs/decisions/052).
 */
provideBlobStore(() => new S3BlobStore());
