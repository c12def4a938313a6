import { createHash } from 'node:crypto';
import { isAccessTokenBearer } from '../../shared/domain/access-tokens';
import { MemoryAccessTokenRepository } from '../adapters/memory/access-token-repository';
import { MemoryArtefactJobs } from '../adapters/memory/artefact-jobs';
import { MemoryAuditLog } from '../adapters/memory/audit-log';
import { MemoryBlobStore } from '../adapters/memory/blob-store';
import { MemoryDccRepository } from '../adapters/memory/dcc-repository';
import { MemoryMailer } from '../adapters/memory/mail-sender';
import { MemoryArtefacts } from '../adapters/memory/package-artefacts';
import { MemoryPackageRepository } from '../adapters/memory/package-repository';
import { MemoryPasskeyRepository } from '../adapters/memory/passkey-repository';
import { MemoryPendingDecisions } from '../adapters/memory/pending-decisions';
import { MemoryResourceRepository } from '../adapters/memory/resource-repository';
import { MemoryUploadJobs } from '../adapters/memory/upload-jobs';
import { MemoryUserRepository } from '../adapters/memory/user-repository';
import type * as real from '../composition';
import type * as realAccessTokens from '../composition-access-tokens';
import type * as realArtefacts from '../composition-artefacts';
import type * as realAudit from '../composition-audit';
import type * as realAuditExport from '../composition-audit-export';
import type * as realCompany from '../composition-company';
import type * as realHttp from '../composition-http';
import type * as realJobs from '../composition-jobs';
import type * as realMail from '../composition-mail';
import type * as realPackages from '../composition-packages';
import type * as realProvenance from '../composition-provenance';
import type * as realStorage from '../composition-storage';
import type * as realUploads from '../composition-uploads';
import type { Authenticate } from '../middleware/authorize';
import { systemClock } from '../ports/clock';
import type { ArtefactRef } from '../ports/package-repository';
import type { ResourceReferences } from '../ports/resource-repository';
import { AccessTokenService } from '../services/access-tokens';
import { checkPinned, readPinned, xmlPin } from '../services/artefact/stored-file';
import { AuditExporter } from '../services/audit/audit-export';
import type { CompanySignOnService } from '../services/company-sign-on-service';
import { PackageService } from '../services/package-service';
import { headerRules } from '../services/packages/header-rules';
import { ProvenanceService } from '../services/provenance-service';
import { ResourceService } from '../services/resource-service';
import { TokenService } from '../services/token-service';
import { UserService } from '../services/user-service';
import { authenticate as checkToken } from '../services/users/sign-in';
import { confirmSignature } from '../services/users/signature-check';

/**
 * The composition root of the web component tests (decision 230): the real services over the
 * memory adapters, one backend per test (`resetMemoryBackend`). The web vitest project resolves every
 * `lambdas/composition*.ts` a handler imports to this module (web/vitest.config.ts), so the tests run the
 * real handlers, middleware and services in Node; only the adapters differ from the deployed ones. Each
 * getter has the type of the getter it stands for (checked at the end of this file).
 */

/**
 * Generated packages in memory whose bytes are a small XML naming the package, with their real SHA-256,
 * kept in object storage of their own that keeps versions as the artefacts bucket does in AWS (`files`),
 * so a download is checked as in production, by the same pinned reads (services/artefact/stored-file.ts),
 * and a test can write other bytes over a stored file (the XML itself is tested in services/artefact/).
 */
/** the real default of INLINE_DOWNLOAD_MAX_BYTES (lambdas/composition-artefacts.ts) */
const INLINE_LIMIT_BYTES = 4 * 1024 * 1024;
const ARTEFACTS_BUCKET = 'artefacts';

class SampleXmlArtefacts extends MemoryArtefacts {
  constructor(readonly files: MemoryBlobStore) {
    super();
  }

  override async generate(input: Parameters<MemoryArtefacts['generate']>[0]): Promise<ArtefactRef> {
    const ref = await super.generate(input);
    const xml = Buffer.from(`<package id="${input.pkg.id}" name="${input.pkg.name}"/>`);
    const { versionId } = await this.files.put(ARTEFACTS_BUCKET, ref.key, xml, {
      contentType: 'application/xml',
    });
    const sha256 = createHash('sha256').update(xml).digest('hex');
    const full = { ...ref, sizeBytes: xml.length, sha256, ...(versionId ? { versionId } : {}) };
    const stored = this.stored.get(ref.key);
    if (stored) this.stored.set(ref.key, { ...stored, ref: full });
    return full;
  }

  /** as the real store (lambdas/services/artefact/artefact-store.ts): inline up to 4 MiB, else a presigned URL */
  override async download(ref: ArtefactRef): Promise<{ base64?: string; url?: string }> {
    if (ref.sizeBytes > INLINE_LIMIT_BYTES) {
      await checkPinned(this.files, ARTEFACTS_BUCKET, 'xml', xmlPin(ref));
      const url = await this.files.presignGet(ARTEFACTS_BUCKET, ref.key, {
        expiresInSeconds: 600,
        ...(ref.versionId ? { versionId: ref.versionId } : {}),
      });
      return { url };
    }
    const xml = await readPinned(this.files, ARTEFACTS_BUCKET, 'xml', xmlPin(ref));
    return { base64: xml.toString('base64') };
  }

  override async verifyStored(ref: ArtefactRef): Promise<void> {
    await checkPinned(this.files, ARTEFACTS_BUCKET, 'xml', xmlPin(ref));
  }
}

/** The sign-in throttle of the tests: as in production, but with room for the tests' wrong passwords. */
const THROTTLE = { maxFailuresPerSource: 1000 } as const;

/** Presigned URLs of the memory object storage point here; the tests' MSW seam answers their PUTs. */
export const MEMORY_STORAGE_URL = 'https://memory-storage.test';

function build() {
  const clock = systemClock;
  // one log: every repository records the events of its writes in it, with the write (decision 283)
  const audit = new MemoryAuditLog(clock);
  const users = new MemoryUserRepository(clock, audit);
  const resources = new MemoryResourceRepository(audit);
  const packages = new MemoryPackageRepository(async (id) => (await resources.getById(id)) !== null, {
    audit,
  });
  const dccs = new MemoryDccRepository(audit);
  const blobs = new MemoryBlobStore(MEMORY_STORAGE_URL);
  const mailer = new MemoryMailer();
  const artefacts = new SampleXmlArtefacts(new MemoryBlobStore(MEMORY_STORAGE_URL, true));
  const generations = new MemoryArtefactJobs();
  const verifications = new MemoryUploadJobs();
  const pending = new MemoryPendingDecisions();
  const tokens = new TokenService('memory-backend-token-key-of-the-web-tests', 2 * 60 * 60);
  /** which packages use a resource: the packages table's byResource index, as DynamoDB answers it */
  const references: ResourceReferences = {
    packagesUsing: async (resourceId) =>
      (await packages.listByResource(resourceId)).map((p) => ({ packageId: p.id, packageName: p.name })),
  };
  const accessTokens = new AccessTokenService({
    tokens: new MemoryAccessTokenRepository(audit),
    users,
    clock,
  });
  // passkeys (decision 322): the relying party of the component tests' origin; no browser prompt runs there
  const passkeys = {
    store: new MemoryPasskeyRepository(users),
    webauthn: {
      rpId: 'portal.test',
      rpName: 'Firmware Release Portal',
      origins: ['https://portal.test'],
      required: false,
    },
  };
  const userService = new UserService(
    users,
    tokens,
    mailer,
    clock,
    { tempPasswordMinutes: 30, ...THROTTLE, appUrl: 'https://portal.test', allowedEmailDomains: [] },
    pending,
    passkeys,
  );
  const resourceService = new ResourceService(
    resources,
    references,
    blobs,
    clock,
    {
      bucket: () => 'resources',
      maxResourceBytes: 10 * 1024 ** 3,
      maxMetadataBytes: 1_000_000,
      uploadTtlSeconds: 15 * 60,
      multipartTtlSeconds: 24 * 3600,
    },
    () => verifications,
  );
  const packageService = new PackageService({
    packages,
    resources,
    dccs,
    users,
    audit,
    artefacts: () => artefacts,
    jobs: () => generations,
    header: headerRules,
    clock,
    appUrl: 'https://portal.test',
    signatures: {
      confirm: (user, proof, sourceIp) =>
        confirmSignature({ users, clock, config: THROTTLE, passkeys }, user, proof, sourceIp),
    },
  });

  const provenance = new ProvenanceService({
    resources,
    packages,
    blobs,
    bucket: () => 'resources',
  });

  /**
   * Runs the generations and upload verifications started so far, as the workers would after the request
   * (decision 160, 173); a job that throws is failed as after its last retry.
   */
  async function runJobs(reason = 'failed in the test'): Promise<void> {
    for (const job of generations.take()) {
      try {
        await packageService.runGeneration(job);
      } catch {
        await packageService.failGeneration(job, reason);
      }
    }
    for (const job of verifications.take()) {
      try {
        await resourceService.runVerification(job);
      } catch {
        await resourceService.failVerification(job, reason);
      }
    }
  }

  return {
    users,
    resources,
    packages,
    dccs,
    audit,
    blobs,
    mailer,
    artefacts,
    generations,
    verifications,
    pending,
    tokens,
    accessTokens,
    userService,
    resourceService,
    packageService,
    auditService: new AuditExporter({ audit, clock }),
    provenance,
    /** the stage's passkey rule: a test of a stage that requires passkeys sets `webauthn.required` */
    passkeys,
    runJobs,
    /** false: started jobs wait for `runJobs` (a test that watches a generation run); true: run after each call */
    autoRunJobs: true,
  };
}

export type MemoryBackend = ReturnType<typeof build>;

let current: MemoryBackend = build();

/** The backend of the running test. */
export const memoryBackend = (): MemoryBackend => current;

/** A new, empty backend (each test starts from its own). */
export function resetMemoryBackend(): MemoryBackend {
  current = build();
  return current;
}

// ── the getters the handlers import (the names of lambdas/composition*.ts) ──────────────────────────
export const loadUserService = async () => current.userService;
export const loadUserServiceWithMail = loadUserService;
export const resourceService = () => current.resourceService;
export const resourceServiceWithStorage = resourceService;
export const confirmingResourceService = resourceService;
export const packageService = () => current.packageService;
export const packageServiceWithJobs = packageService;
export const packageServiceWithArtefacts = packageService;
export const packageServiceWithResourceReads = packageService;
export const artefactService = () => current.artefacts;
export const accessTokenService = () => current.accessTokens;
export const provenanceService = () => current.provenance;
export const auditService = () => current.auditService;
export const auditExporter = auditService;
/**
 * Company sign-on is off in the component tests: no identity provider runs in jsdom (the integration and
 * end-to-end tests run the local provider); its rows answer 404 as on a stage without one.
 */
export const companySignOnEnabled = (): boolean => false;
export const loadCompanySignOn = (): Promise<CompanySignOnService> =>
  Promise.reject(new Error('no company identity provider in the component tests'));
/** as lambdas/composition-http.ts: an access token by its scope, a session token as before */
export const authenticate: Authenticate = (token, route) =>
  token && isAccessTokenBearer(token)
    ? current.accessTokens.authenticate(token, route)
    : checkToken({ tokens: current.tokens, users: current.users, clock: systemClock }, token);

/** Each stand-in has the type of the getter it replaces: a changed composition module fails tsc here. */
export const standsFor: {
  loadUserService: typeof real.loadUserService;
  loadUserServiceWithMail: typeof realMail.loadUserServiceWithMail;
  resourceService: typeof real.resourceService;
  resourceServiceWithStorage: typeof realStorage.resourceServiceWithStorage;
  confirmingResourceService: typeof realUploads.confirmingResourceService;
  packageService: typeof realPackages.packageService;
  packageServiceWithJobs: typeof realJobs.packageServiceWithJobs;
  packageServiceWithArtefacts: typeof realArtefacts.packageServiceWithArtefacts;
  packageServiceWithResourceReads: typeof realStorage.packageServiceWithResourceReads;
  artefactService: typeof realArtefacts.artefactService;
  authenticate: typeof realHttp.authenticate;
  accessTokenService: typeof realAccessTokens.accessTokenService;
  provenanceService: typeof realProvenance.provenanceService;
  auditService: typeof realAudit.auditService;
  auditExporter: typeof realAuditExport.auditExporter;
  companySignOnEnabled: typeof realCompany.companySignOnEnabled;
  loadCompanySignOn: typeof realCompany.loadCompanySignOn;
} = {
  loadUserService,
  loadUserServiceWithMail,
  resourceService,
  resourceServiceWithStorage,
  confirmingResourceService,
  packageService,
  packageServiceWithJobs,
  packageServiceWithArtefacts,
  packageServiceWithResourceReads,
  artefactService,
  authenticate,
  accessTokenService,
  provenanceService,
  auditService,
  auditExporter,
  companySignOnEnabled,
  loadCompanySignOn,
};
