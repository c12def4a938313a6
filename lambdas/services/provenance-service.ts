import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  type ProvenanceFields,
  type ProvenanceRecord,
  provenanceText,
  type SbomSummary,
  sbomKeyOf,
} from '../../shared/api/contracts/provenance';
import type { AttachProvenance } from '../../shared/api/contracts/provenance-attach';
import type { Resource } from '../../shared/api/contracts/resources';
import { ConflictError, ForbiddenError, NotFoundError } from '../../shared/domain/errors';
import { PACKAGE_ERR } from '../../shared/domain/package-texts';
import { PROVENANCE_AUDIT, PROVENANCE_ERR } from '../../shared/domain/provenance-texts';
import { checkSbom } from '../../shared/domain/sbom';
import type { AuditEvent } from '../ports/audit-log';
import type { BlobStore } from '../ports/blob-store';
import type { PackageRepository } from '../ports/package-repository';
import type { ResourceProvenanceStore, ResourceRepository } from '../ports/resource-repository';
import { packageNotFound } from './packages/package-core';
import { type Actor, toResource } from './resources/common';

export interface ProvenanceDeps {
  resources: Pick<ResourceRepository, 'getById'> & ResourceProvenanceStore;
  packages: Pick<PackageRepository, 'get' | 'tombstone'>;
  blobs: Pick<BlobStore, 'put' | 'get'>;
  /** the resources bucket, read on first use */
  bucket: () => string;
}

/** A package's pinned SBOM as GET /packages/{id}/sbom sends it. */
export interface PackageSbomFile {
  text: string;
  fileName: string;
  sha256: string;
}

const sha256Hex = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Build provenance and SBOM of a resource (decisions 275–276): attached once each by the
 * resource's uploader, checked before anything is written, the SBOM's bytes stored before the record that
 * names them; packages created afterwards pin both (create-package.ts), and their readers download the
 * pinned SBOM.
 */
export class ProvenanceService {
  constructor(private readonly d: ProvenanceDeps) {}

  async attach(actor: Actor, resourceId: string, body: AttachProvenance): Promise<Resource> {
    const resource = await this.d.resources.getById(resourceId);
    if (!resource) throw new NotFoundError(PACKAGE_ERR.resourceNotFound);
    if (resource.uploadedBy.id !== actor.id) throw new ForbiddenError(PROVENANCE_ERR.notUploader);
    // set once, refused before any byte is written: the stored SBOM of a pinned package never changes here
    if (body.provenance && resource.provenance) throw new ConflictError(PROVENANCE_ERR.provenanceAttached);
    if (body.sbom && resource.sbom) throw new ConflictError(PROVENANCE_ERR.sbomAttached);

    const fields: ProvenanceFields = {};
    if (body.provenance) {
      const p = body.provenance;
      const record: ProvenanceRecord = {
        repository: p.repository,
        commit: p.commit.toLowerCase(),
        buildId: p.buildId,
        buildUrl: p.buildUrl,
        builder: p.builder,
        sha256: '',
      };
      record.sha256 = sha256Hex(provenanceText(record));
      fields.provenance = record;
    }
    let sbomBytes: Uint8Array | undefined;
    if (body.sbom) {
      const checked = checkSbom(body.sbom.content);
      sbomBytes = new TextEncoder().encode(checked.text);
      const summary: SbomSummary = {
        format: checked.format,
        specVersion: checked.specVersion,
        componentCount: checked.componentCount,
        topComponents: checked.topComponents,
        fileName: body.sbom.fileName,
        sizeBytes: sbomBytes.length,
        sha256: sha256Hex(sbomBytes),
        ...(checked.subject ? { subject: checked.subject } : {}),
      };
      fields.sbom = summary;
    }

    // the object first: a record never names bytes that are not stored; a failed record write leaves an
    // object nothing names, overwritten by the retry
    if (sbomBytes)
      await this.d.blobs.put(this.d.bucket(), sbomKeyOf(resourceId), sbomBytes, {
        contentType: 'application/json',
        sizeBytes: sbomBytes.length,
      });
    const who = { actorId: actor.id, actorName: actor.name, actorRole: actor.userRole };
    const events: AuditEvent[] = [];
    if (fields.provenance) {
      const p = fields.provenance;
      events.push({
        subject: `RES#${resourceId}`,
        action: 'RESOURCE_PROVENANCE_ATTACHED',
        meaning: PROVENANCE_AUDIT.provenance(p.commit, p.repository),
        ...who,
        details: { ...p },
      });
    }
    if (fields.sbom) {
      const s = fields.sbom;
      events.push({
        subject: `RES#${resourceId}`,
        action: 'RESOURCE_SBOM_ATTACHED',
        meaning: PROVENANCE_AUDIT.sbom(s.format, s.componentCount),
        ...who,
        details: {
          fileName: s.fileName,
          format: s.format,
          specVersion: s.specVersion,
          componentCount: s.componentCount,
          sizeBytes: s.sizeBytes,
          sha256: s.sha256,
        },
      });
    }
    // the fields and their events: one transaction (decision 283)
    const outcome = await this.d.resources.attachProvenance(resourceId, fields, { events });
    if (outcome === 'missing') throw new NotFoundError(PACKAGE_ERR.resourceNotFound);
    if (outcome === 'provenanceTaken') throw new ConflictError(PROVENANCE_ERR.provenanceAttached);
    if (outcome === 'sbomTaken') throw new ConflictError(PROVENANCE_ERR.sbomAttached);
    return toResource({ ...resource, ...fields });
  }

  /** The SBOM a package pins: the stored bytes, refused (404) when the package has none. */
  async packageSbom(packageId: string): Promise<PackageSbomFile> {
    const pkg = await this.d.packages.get(packageId);
    if (!pkg) throw await packageNotFound(this.d.packages, packageId);
    const pin = pkg.resourceFile?.sbom;
    if (!pin) throw new NotFoundError(PROVENANCE_ERR.noSbom);
    const stream = await this.d.blobs.get(this.d.bucket(), sbomKeyOf(pkg.resourceId));
    if (!stream) throw new NotFoundError(PROVENANCE_ERR.noSbom);
    const bytes = await readAll(stream);
    // the stored bytes are what the package pins; anything else is not its SBOM (never sent as if it were)
    if (bytes.length !== pin.sizeBytes || sha256Hex(bytes) !== pin.sha256)
      throw new ConflictError(PROVENANCE_ERR.sbomChanged);
    return { text: new TextDecoder().decode(bytes), fileName: pin.fileName, sha256: pin.sha256 };
  }
}

async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}
