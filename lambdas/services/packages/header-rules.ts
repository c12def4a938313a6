import type { PackageType } from '../../../shared/api/contracts/packages';
import {
  computeFields,
  newPackageHeader,
  validateHeaderUpdateOrThrow,
} from '../../../shared/domain/header/header-rules';
import type { Header } from '../../../shared/domain/header/header-schema';
import type { HeaderRules } from './package-deps';

/**
 * Bytes of a model's metadata file (its patch config) as the resource record holds them; 0 for a patch.
 * Records of models uploaded before the size was recorded give undefined; generation recomputes the
 * field from the bytes it packages in any case (artefact-store.ts).
 */
const metadataSizeOf = (resource: { sizeBytes: number; metadataSizeBytes?: number }) =>
  resource.metadataSizeBytes;

/** Header rules of shared/domain/header, in the shape the package service asks for. */
export const headerRules: HeaderRules = {
  initial: (pkg, resource) =>
    newPackageHeader({
      packageType: pkg.type as PackageType,
      resourceSizeBytes: resource.sizeBytes,
      metadataSizeBytes: metadataSizeOf(resource),
    }),
  update: (current, submitted, pkg, resource) => {
    const { header } = validateHeaderUpdateOrThrow(current as Header, submitted);
    return computeFields(header, {
      packageType: pkg.type as PackageType,
      resourceSizeBytes: resource.sizeBytes,
      metadataSizeBytes: metadataSizeOf(resource),
    });
  },
};
