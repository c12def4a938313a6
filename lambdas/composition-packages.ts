import type { PackageType } from '../shared/api/contracts/packages';
import {
  computeFields,
  newPackageHeader,
  validateHeaderUpdateOrThrow,
} from '../shared/domain/header/header-rules';
import type { Header } from '../shared/domain/header/header-schema';
import { DynamoDccRepository } from './adapters/dynamodb/dcc-repository';
import { DynamoPackageRepository } from './adapters/dynamodb/package-repository';
import { KmsSigner } from './adapters/kms/kms-signer';
import { FileSigner } from './adapters/local/file-signer';
import { auditLog, blobStore, mailService, resourceRepository, userRepository } from './composition';
import { appUrl, bucketName, intEnv, tableName } from './config/env';
import type { ArtefactService } from './ports/artefact-service';
import { systemClock } from './ports/clock';
import type { Signer } from './ports/signer';
import { BlobArtefactStore } from './services/artefact/artefact-store';
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

let signer: Signer | undefined;
/** The package signer: a local key file (SIGNING_KEY_FILE, local stack) or the KMS key (SIGNING_KEY_ID, AWS). */
export function packageSigner(): Signer {
  signer ??= process.env.SIGNING_KEY_FILE ? FileSigner.fromEnv() : KmsSigner.fromEnv();
  return signer;
}

let artefactService: ArtefactService | undefined;
/** XML generation and storage; built on first use so list routes never touch S3 or the signer. */
export function artefacts(): ArtefactService {
  artefactService ??= new BlobArtefactStore(blobStore(), packageSigner, {
    resourcesBucket: () => bucketName('resources'),
    artefactsBucket: () => bucketName('artefacts'),
    inlineLimitBytes: intEnv('INLINE_DOWNLOAD_MAX_BYTES', 4 * 1024 * 1024),
    downloadUrlTtlSeconds: intEnv('DOWNLOAD_URL_TTL_SECONDS', 10 * 60),
  });
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
