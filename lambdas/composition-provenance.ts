import { DynamoPackageRepository } from './adapters/dynamodb/package-repository';
import { DynamoResourceRepository } from './adapters/dynamodb/resource-repository';
import { auditTable, lazy, once } from './composition';
import { blobStore } from './composition-storage';
import { bucketName, tableName } from './config/env';
import { type ProvenanceDeps, ProvenanceService } from './services/provenance-service';

/**
 * The provenance service: each store is named on first use, since attachProvenance has the
 * resources table and packageSbom the packages table (their route rows' `uses`), never both.
 */
export const provenanceService = /* @__PURE__ */ once(
  () =>
    new ProvenanceService({
      resources: lazy<ProvenanceDeps['resources']>(
        () => new DynamoResourceRepository(tableName('resources'), auditTable),
      ),
      packages: lazy<ProvenanceDeps['packages']>(
        () =>
          new DynamoPackageRepository(tableName('packages'), () => {
            throw new Error('packageSbom reads no resources table');
          }),
      ),
      blobs: { put: (...a) => blobStore().put(...a), get: (...a) => blobStore().get(...a) },
      bucket: () => bucketName('resources'),
    }),
);
