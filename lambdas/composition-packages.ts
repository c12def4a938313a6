import { DynamoDccRepository } from './adapters/dynamodb/dcc-repository';
import { DynamoPackageRepository } from './adapters/dynamodb/package-repository';
import {
  auditLog,
  lazy,
  notPlugged,
  once,
  resourceRepository,
  throttleConfig,
  userRepository,
} from './composition';
import { appUrl, tableName } from './config/env';
import type { ArtefactJobs } from './ports/artefact-jobs';
import type { ArtefactService, MetadataDigest } from './ports/artefact-service';
import { systemClock } from './ports/clock';
import type { DccRepository } from './ports/dcc-repository';
import type { ResourceRepository } from './ports/resource-repository';
import type { UserRepository } from './ports/user-repository';
import { PackageService } from './services/package-service';
import { headerRules } from './services/packages/header-rules';
import { confirmSignature } from './services/users/signature-check';

/** Every method of the DCC repository port, for `lazy`. */
const DCC_REPOSITORY_METHODS: { [K in keyof DccRepository]: true } = {
  create: true,
  get: true,
  list: true,
  delete: true,
};

/** Every method of the resource repository port, for `lazy`. */
const RESOURCE_REPOSITORY_METHODS: { [K in keyof ResourceRepository]: true } = {
  getById: true,
  isNameTaken: true,
  create: true,
  listByTypeStage: true,
  listAll: true,
  delete: true,
  putPendingUpload: true,
  getPendingUpload: true,
  lockPendingUpload: true,
  unlockPendingUpload: true,
  deletePendingUpload: true,
  startVerification: true,
  recordVerification: true,
  failVerification: true,
  refuseUpload: true,
  getUploadOutcome: true,
};

/**
 * The package service with the given artefact store, as a getter; table names are read on first use so
 * each Lambda needs only its own stores.
 */
export function packageServiceWith(
  artefacts: () => ArtefactService,
  jobs: () => ArtefactJobs = () => {
    throw notPlugged('generation jobs', 'composition-jobs.ts');
  },
  metadataDigest?: () => MetadataDigest,
): () => PackageService {
  return once(
    () =>
      new PackageService({
        packages: new DynamoPackageRepository(
          tableName('packages'),
          () => tableName('resources'),
          () => tableName('outbox'),
        ),
        resources: lazy(resourceRepository, RESOURCE_REPOSITORY_METHODS),
        dccs: lazy(() => new DynamoDccRepository(tableName('dcc')), DCC_REPOSITORY_METHODS),
        // named on first use: the generation workers (decision 160) have no users table
        users: lazy<Pick<UserRepository, 'getById' | 'listByRole'>>(userRepository, {
          getById: true,
          listByRole: true,
        }),
        audit: { append: (e) => auditLog().append(e), history: (s) => auditLog().history(s) },
        artefacts,
        jobs,
        ...(metadataDigest ? { metadataDigest } : {}),
        header: headerRules,
        clock: systemClock,
        appUrl: appUrl(),
        // a decision's password: the identity check with the sign-in throttle, without the identity
        // service (decisions 131, 141)
        signatures: {
          confirm: (user, password, sourceIp) =>
            confirmSignature(
              { users: userRepository(), clock: systemClock, config: throttleConfig() },
              user,
              password,
              sourceIp,
            ),
        },
      }),
  );
}

/**
 * The package service of a Lambda without XML generation and storage: list, header, voting and DCC
 * routes (composition-artefacts.ts has the one that generates, downloads and deletes artefacts).
 */
export const packageService: () => PackageService = /* @__PURE__ */ packageServiceWith(() => {
  throw notPlugged('artefact store', 'composition-artefacts.ts');
});
