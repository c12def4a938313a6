import { createHash } from 'node:crypto';
import type { PackageType } from '../../../shared/api/contracts/packages';
import { type ProvenanceFields, sbomKeyOf } from '../../../shared/api/contracts/provenance';
import type { Stage } from '../../../shared/api/contracts/resources';
import { ConflictError } from '../../../shared/domain/errors';
import { computeFields } from '../../../shared/domain/header/header-rules';
import type { Header } from '../../../shared/domain/header/header-schema';
import { signatureMeaning } from '../../../shared/domain/signature-meanings';
import { type ArtefactService, StoredFileMismatch } from '../../ports/artefact-service';
import type { BlobStore } from '../../ports/blob-store';
import type { ArtefactRef, PackageRecord } from '../../ports/package-repository';
import type { ResourceRecord } from '../../ports/resource-repository';
import type { PackageKeys, Signer } from '../../ports/signer';
import { readMetadata } from './metadata-file';
import {
  buildStatement,
  checkProvenancePin,
  checkSbomPin,
  envelopeText,
  SBOM_PIN_ERR,
  signStatement,
  statementKeyOf,
} from './provenance-statement';
import { checkPinned, readPinned, statementPin, xmlPin } from './stored-file';
import { buildXmlPackage, type MetadataPin } from './xml-package';

/**
 * The metadata file's size and SHA-256 as pinned for review (decision 190): the package's copy (recorded
 * at its creation, shown on the review page and in the signature dialog), else the resource's record of
 * the upload; null when neither holds one (a package created before digests were recorded).
 */
export function pinnedMetadata(
  pkg: Pick<PackageRecord, 'resourceFile'>,
  resource: Pick<ResourceRecord, 'metadataSha256' | 'metadataSizeBytes'>,
): MetadataPin | null {
  const f = pkg.resourceFile;
  if (f?.metadataSha256 && f.metadataSizeBytes !== undefined)
    return { sha256: f.metadataSha256, sizeBytes: f.metadataSizeBytes };
  if (resource.metadataSha256 && resource.metadataSizeBytes !== undefined)
    return { sha256: resource.metadataSha256, sizeBytes: resource.metadataSizeBytes };
  return null;
}

export interface ArtefactStoreConfig {
  resourcesBucket: () => string;
  artefactsBucket: () => string;
  /** packages up to this size come back inline as base64 (Lambda answers at most 6 MB; base64 adds a third) */
  inlineLimitBytes: number;
  downloadUrlTtlSeconds: number;
}

/**
 * Generates XML packages (xml-package.ts) from the stored resource and keeps them in the artefacts
 * bucket. The XML streams straight into storage (BlobStore.putStream: a multipart upload of a few parts
 * in flight), so memory stays flat however large the resource is, nothing touches Lambda's /tmp, and
 * generation and upload overlap. On failure no object is left.
 */
export class BlobArtefactStore implements ArtefactService {
  constructor(
    private readonly blobs: BlobStore,
    private readonly keys: PackageKeys,
    private readonly config: ArtefactStoreConfig,
  ) {}

  /**
   * The signer of a package of `stage`: that stage's key, and only in the generation worker that holds it
   * (decision 295). The release key never signs a development package: a field device would take it.
   */
  private signerFor(stage: Stage): Signer {
    if (!this.keys.signsFor.includes(stage))
      throw new Error(
        `The ${stage} key is not held here: ${stage} packages are signed by their own generation worker (${this.keys.signsFor.join(', ') || 'this function signs nothing'})`,
      );
    return this.keys.of(stage);
  }

  async generate(input: Parameters<ArtefactService['generate']>[0]): Promise<ArtefactRef> {
    const { pkg, resource, dcc, approvals, signedBy, at, onProgress } = input;
    // first: a worker without this stage's key fails before it reads or writes anything (decision 295)
    const signer = signedBy ? this.signerFor(pkg.resourceStage) : undefined;
    // the build provenance and the SBOM pinned for review (decision 280): checked before a byte is written
    const pinned = (pkg.resourceFile ?? {}) as ProvenanceFields;
    if (pinned.provenance) checkProvenancePin(pinned.provenance);
    if (pinned.sbom) checkSbomPin(await this.sbomDigest(resource), pinned.sbom);
    const payload = await this.blobs.get(this.config.resourcesBucket(), resource.objectKey);
    if (!payload) throw new ConflictError(`The file of resource ${resource.name} is missing from storage`);
    let patchConfig: { fileName: string; bytes: Uint8Array; expected: MetadataPin | null } | undefined;
    if (resource.metadataKey) {
      patchConfig = {
        fileName: `${resource.name}.json`,
        bytes: await this.readMetadata(resource),
        // pinned for review (decision 190): the package's copy, else the resource's record of the upload
        expected: pinnedMetadata(pkg, resource),
      };
    }
    // The server computes Type, Patch Data Size, Patch Config Size, Header Size and Header CRC from what it
    // packages, whatever the stored header says: a header saved before a size was known cannot block the
    // package, and a client never decides a computed byte.
    const header = computeFields(pkg.header as Header, {
      packageType: pkg.type as PackageType,
      resourceSizeBytes: resource.sizeBytes,
      metadataSizeBytes: patchConfig?.bytes.length ?? 0,
    });
    const generatedAt = at.toISOString();
    const build = buildXmlPackage({
      package: {
        id: pkg.id,
        name: pkg.name,
        type: pkg.type,
        stage: pkg.resourceStage,
        resourceName: pkg.resourceName,
        resourceType: pkg.resourceType,
        note: pkg.note,
        initiator: {
          id: pkg.initiator.id,
          name: pkg.initiator.name,
          email: pkg.initiator.email,
          role: pkg.initiator.userRole,
        },
        createdAt: pkg.createdAt,
      },
      generatedAt,
      header,
      dcc: {
        id: dcc.id,
        deviceId: dcc.deviceId,
        telemetryType: dcc.telemetryType,
        deviceLimit: dcc.deviceLimit,
        messageLimit: dcc.messageLimit,
      },
      approvals: approvals.map((a) => ({
        approver: { id: a.id, name: a.name, email: a.email, role: a.role },
        approvedAt: a.decidedAt,
        meaning: signatureMeaning('approve', pkg.type),
      })),
      payload: { fileName: resource.fileName, bytes: payload, expectedSha256: resource.sha256, onProgress },
      patchConfig,
      signing:
        signedBy && signer
          ? {
              signer,
              signedBy,
              signedAt: generatedAt,
              meaning: signatureMeaning('sign', pkg.type),
            }
          : undefined,
    });

    const hash = createHash('sha256');
    async function* hashed(): AsyncGenerator<Uint8Array> {
      for await (const chunk of build.stream as AsyncIterable<Uint8Array>) {
        hash.update(chunk);
        yield chunk;
      }
    }
    const key = this.keyFor(pkg, at);
    const bucket = this.config.artefactsBucket();
    // the version S3 gave the XML (AWS) is pinned beside its SHA-256: reads ask for it (decision 302)
    const { sizeBytes, versionId } = await this.blobs.putStream(bucket, key, hashed(), {
      contentType: 'application/xml',
    });
    let sidecar: Pick<ArtefactRef, 'statementKey' | 'statementSha256' | 'statementVersionId'> = {};
    try {
      // the build reports what it checked (the payload's SHA-256 against the resource's) after the last byte
      const built = await build.result;
      // every signed package gets its signed provenance statement beside it (decision 279); unsigned: none
      if (signer) {
        const statement = buildStatement({
          manifest: built.manifest,
          manifestSha256: built.manifestSha256,
          provenance: pinned.provenance ?? null,
          sbom: pinned.sbom ?? null,
        });
        // the package's own key signs its statement (docs/package-format.md §11)
        const envelope = await signStatement(statement, signer);
        const statementKey = statementKeyOf(key);
        const bytes = Buffer.from(envelopeText(envelope), 'utf8');
        const stored = await this.blobs.put(bucket, statementKey, bytes, { contentType: 'application/json' });
        // pinned like the XML (decision 302)
        sidecar = {
          statementKey,
          statementSha256: createHash('sha256').update(bytes).digest('hex'),
          ...(stored.versionId ? { statementVersionId: stored.versionId } : {}),
        };
      }
    } catch (e) {
      // best effort: the error that matters is the build's, not a failed clean-up
      await this.blobs.delete(bucket, [key, statementKeyOf(key)]).catch(() => undefined);
      throw e;
    }
    return {
      key,
      sizeBytes,
      sha256: hash.digest('hex'),
      signed: Boolean(signedBy),
      generatedAt,
      ...(versionId ? { versionId } : {}),
      ...sidecar,
    };
  }

  /** The stored SBOM's size and SHA-256, hashed as it streams (at most SBOM_MAX_BYTES, never held whole). */
  private async sbomDigest(resource: ResourceRecord): Promise<{ sizeBytes: number; sha256: string }> {
    const body = await this.blobs.get(this.config.resourcesBucket(), sbomKeyOf(resource.id));
    if (!body) throw new ConflictError(SBOM_PIN_ERR.missing(resource.name));
    const hash = createHash('sha256');
    let sizeBytes = 0;
    for await (const c of body as AsyncIterable<Uint8Array>) {
      hash.update(c);
      sizeBytes += c.length;
    }
    return { sizeBytes, sha256: hash.digest('hex') };
  }

  async statement(ref: ArtefactRef): Promise<string | null> {
    if (!ref.statementKey) return null;
    const bucket = this.config.artefactsBucket();
    // pinned since decision 302; an earlier statement is read as stored and its package checked by the caller
    const pin = statementPin(ref);
    const bytes = pin
      ? await readPinned(this.blobs, bucket, 'statement', pin)
      : await this.readUnpinned(bucket, ref.statementKey);
    // the file as stored, byte for byte: the one form of docs/package-format.md §11, final LF included
    return bytes.toString('utf8');
  }

  /** A statement stored before statements were pinned: its bytes as they are (no SHA-256 to compare). */
  private async readUnpinned(bucket: string, key: string): Promise<Buffer> {
    const body = await this.blobs.get(bucket, key);
    if (!body) throw new StoredFileMismatch('statement', { key, sha256: '' }, { kind: 'missing' });
    const chunks: Buffer[] = [];
    for await (const c of body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(c));
    return Buffer.concat(chunks);
  }

  async verifyStored(ref: ArtefactRef): Promise<void> {
    await checkPinned(this.blobs, this.config.artefactsBucket(), 'xml', xmlPin(ref));
  }

  private readMetadata(resource: ResourceRecord): Promise<Buffer> {
    return readMetadata(this.blobs, this.config.resourcesBucket(), resource);
  }

  keyFor(pkg: Pick<PackageRecord, 'id' | 'name'>, at: Date): string {
    const safe = pkg.name.replace(/[^\w.-]+/g, '_');
    return `packages/${pkg.id}/${at.toISOString().replace(/[:.]/g, '-')}-${safe}.xml`;
  }

  async download(ref: ArtefactRef, fileName: string): Promise<{ base64?: string; url?: string }> {
    const bucket = this.config.artefactsBucket();
    const pin = xmlPin(ref);
    // what is served is what was generated (decision 302): the bytes read are hashed before they leave
    if (ref.sizeBytes <= this.config.inlineLimitBytes)
      return { base64: (await readPinned(this.blobs, bucket, 'xml', pin)).toString('base64') };
    // a URL serves bytes this code never reads: it names the pinned version (AWS), or, where the bucket keeps
    // no versions, the stored file is hashed whole before the URL is made
    await checkPinned(this.blobs, bucket, 'xml', pin);
    const url = await this.blobs.presignGet(bucket, ref.key, {
      expiresInSeconds: this.config.downloadUrlTtlSeconds,
      downloadName: fileName,
      contentType: 'application/xml',
      ...(ref.versionId ? { versionId: ref.versionId } : {}),
    });
    return { url };
  }

  async remove(ref: ArtefactRef): Promise<void> {
    // the statement's key follows from the XML's: a crashed run's clean-up (no ref recorded) removes it too
    await this.blobs.delete(this.config.artefactsBucket(), [ref.key, statementKeyOf(ref.key)]);
  }

  async publicKeyPem(stage: Stage = 'RELEASE'): Promise<{ pem: string; keyId: string }> {
    const s = this.keys.of(stage);
    return { pem: await s.publicKeyPem(), keyId: s.keyId };
  }
}
