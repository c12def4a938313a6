import type { PackageType } from '../shared/api/contracts/packages';
import {
  computeFields,
  newPackageHeader,
  validateHeaderUpdateOrThrow,
} from '../shared/domain/header/header-rules';
import type { Header } from '../shared/domain/header/header-schema';
import { DynamoDccRepository } from './adapters/dynamodb/dcc-repository';
import { DynamoPackageRepository } from './adapters/dynamodb/package-repository';
import { auditLog, lazy, resourceRepository, userRepository } from './composition';
import { appUrl, tableName } from './config/env';
import type { ArtefactService } from './ports/artefact-service';
import { systemClock } from './ports/clock';
import { type HeaderRules, PackageService } from './services/package-service';

/**
 * Bytes of a model's metadata file (its patch config) as the resource record holds them; 0 for a patch.
 * Records of models uploaded before the size was recorded give undefined; generation recomputes the
 * field from the bytes it packages in any case (artefact-store.ts).
 */
const metadataSizeOf = (resource: { sizeBytes: number; metadataSizeBytes?: number }) =>
  resource.metadataSizeBytes;

/** Header rules of shared/domain/header, in the shape the package service asks for. */
const headerRules: HeaderRules = {
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

let artefactsFactory: (() => ArtefactService) | undefined;
/**
 * Plugs in XML generation and storage (composition-artefacts.ts: S3, and KMS or the local key). Only the
 * handlers of routes that generate, download or delete artefacts import it (docs/decisions/052).
 */
export function provideArtefacts(make: () => ArtefactService): void {
  artefactsFactory = make;
}

let artefactService: ArtefactService | undefined;
/** XML generation and storage; built on first use so list routes never touch S3 or the signer. */
export function artefacts(): ArtefactService {
  if (!artefactsFactory)
    throw new Error(
      "This function has no artefact store: its handler must import lambdas/composition-artefacts.ts (route table 'uses')",
    );
  artefactService ??= artefactsFactory();
  return artefactService;
}

let service: PackageService | undefined;
/** The package service; table names are read on first use so each Lambda needs only its own stores. */
export function packages$(): PackageService {
  service ??= new PackageService({
    packages: new DynamoPackageRepository(
      tableName('packages'),
      () => tableName('resources'),
      () => tableName('outbox'),
    ),
    resources: lazy(() => resourceRepository()),
    dccs: lazyDcc(),
    users: userRepository(),
    audit: { append: (e) => auditLog().append(e), history: (s) => auditLog().history(s) },
    artefacts,
    header: headerRules,
    clock: systemClock,
    appUrl: appUrl(),
  });
  return service;
}

function lazyDcc() {
  return lazy(() => new DynamoDccRepository(tableName('dcc')));
}
