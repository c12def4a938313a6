import { DynamoDccRepository } from './adapters/dynamodb/dcc-repository';
import { DynamoPackageRepository } from './adapters/dynamodb/package-repository';
import {
  auditLog,
  auditTable,
  companyReauth,
  lazy,
  notPlugged,
  once,
  passkeyPorts,
  resourceRepository,
  throttleConfig,
  userRepository,
} from './composition';
import { appUrl, tableName } from './config/env';
import type { ArtefactJobs } from './ports/artefact-jobs';
import type { ArtefactService, MetadataDigest } from './ports/artefact-service';
import { systemClock } from './ports/clock';
import type { UserRepository } from './ports/user-repository';
import { PackageService } from './services/package-service';
import { headerRules } from './services/packages/header-rules';
import { confirmSignature } from './services/users/signature-check';

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
        packages: new DynamoPackageRepository(tableName('packages'), () => tableName('resources'), {
          outboxTable: () => tableName('outbox'),
          audit: auditTable,
        }),
        resources: lazy(resourceRepository),
        dccs: lazy(() => new DynamoDccRepository(tableName('dcc'), auditTable)),
        // named on first use: the generation workers (decision 160) have no users table
        users: lazy<Pick<UserRepository, 'getById' | 'listByRole'>>(userRepository),
        audit: { history: (s) => auditLog().history(s) },
        artefacts,
        jobs,
        ...(metadataDigest ? { metadataDigest } : {}),
        header: headerRules,
        clock: systemClock,
        appUrl: appUrl(),
        // a decision's signer: password, passkey or a company reauthentication, with the sign-in
        // throttle, without the identity service (decisions 131, 141, 315, 322)
        signatures: {
          confirm: (user, proof, sourceIp) => {
            const reauth = companyReauth();
            return confirmSignature(
              {
                users: userRepository(),
                clock: systemClock,
                config: throttleConfig(),
                passkeys: passkeyPorts(),
                ...(reauth ? { companyReauth: reauth } : {}),
              },
              user,
              proof,
              sourceIp,
            );
          },
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
