import type { PackageType } from '../shared/api/contracts/packages';
import type { Header } from '../shared/domain/header/header-schema';
import { computeFields, newPackageHeader, validateHeaderUpdateOrThrow } from '../shared/domain/header/header-rules';
import { DynamoDccRepository } from './adapters/dynamodb/dcc-repository';
import { DynamoPackageRepository } from './adapters/dynamodb/package-repository';
import { auditLog, mailService, resourceRepository, userRepository } from './composition';
import { appUrl, tableName } from './config/env';
import type { ArtefactService } from './ports/artefact-service';
import { systemClock } from './ports/clock';
import { type HeaderRules, PackageService } from './services/package-service';

/** Header rules of shared/domain/header, in the shape the package service asks for. */
const headerRules: HeaderRules = {
  initial: (pkg, resource) =>
    newPackageHeader({
      packageType: pkg.type as PackageType,
      resourceSizeBytes: resource.sizeBytes,
      metadataSizeBytes: (resource as { metadataSizeBytes?: number }).metadataSizeBytes,
    }),
  update: (current, submitted, pkg, resource) => {
    const { header } = validateHeaderUpdateOrThrow(current as Header, submitted);
    return computeFields(header, {
      packageType: pkg.type as PackageType,
      resourceSizeBytes: resource.sizeBytes,
      metadataSizeBytes: (resource as { metadataSizeBytes?: number }).metadataSizeBytes,
    });
  },
};

let artefactService: ArtefactService | undefined;
/** Set by the artefact composition (XML builder, blob store, signer); routes that generate files need it. */
export function setArtefactService(s: ArtefactService) {
  artefactService = s;
}
function artefacts(): ArtefactService {
  if (!artefactService) throw new Error('artefact service is not configured for this route');
  return artefactService;
}

let service: PackageService | undefined;
/** The package service; table names are read on first use so each Lambda needs only its own stores. */
export function packages$(): PackageService {
  service ??= new PackageService({
    packages: new DynamoPackageRepository(tableName('packages'), () => tableName('resources')),
    resources: lazy(() => resourceRepository()),
    dccs: lazyDcc(),
    users: userRepository(),
    audit: { append: (e) => auditLog().append(e), history: (s) => auditLog().history(s) },
    mailer: { send: (m) => mailService().send(m) },
    artefacts,
    header: headerRules,
    clock: systemClock,
    appUrl: appUrl(),
  });
  return service;
}

function lazy<T extends object>(make: () => T): T {
  let inst: T | undefined;
  return new Proxy({} as T, {
    get: (_, prop) => {
      inst ??= make();
      const v = (inst as Record<string | symbol, unknown>)[prop];
      return typeof v === 'function' ? v.bind(inst) : v;
    },
  });
}

function lazyDcc() {
  return lazy(() => new DynamoDccRepository(tableName('dcc')));
}
