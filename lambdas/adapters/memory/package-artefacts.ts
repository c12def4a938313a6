import type { StoredFile } from '../../../shared/domain/stored-file';
import {
  type ApprovalRecordEntry,
  type ArtefactService,
  StoredFileMismatch,
} from '../../ports/artefact-service';
import type { ArtefactRef, PackageRecord } from '../../ports/package-repository';

/** What a generation was asked to put in the XML (for assertions). */
export interface GeneratedArtefact {
  ref: ArtefactRef;
  packageId: string;
  approvals: ApprovalRecordEntry[];
  signedBy?: { id: string; name: string; email: string; role: string };
}

/**
 * Generated packages in memory: a ref per generation (unique key, a stand-in hash), kept until removed.
 * `failGenerate` makes the next generations fail (a storage or signer outage); `swap` stands for someone
 * replacing a stored file (decision 302).
 */
export class MemoryArtefacts implements ArtefactService {
  readonly stored = new Map<string, GeneratedArtefact>();
  failGenerate: Error | undefined;
  private count = 0;
  private readonly swapped = new Set<string>();

  /** The stored `file` of the artefact at `key` is replaced by other bytes (until `restore`). */
  swap(key: string, file: StoredFile = 'xml'): void {
    this.swapped.add(`${file}:${key}`);
  }

  restore(key: string, file: StoredFile = 'xml'): void {
    this.swapped.delete(`${file}:${key}`);
  }

  /** Throws as the real store does when the stored file is not the generated one. */
  protected refuseSwapped(ref: ArtefactRef, file: StoredFile): void {
    if (!this.swapped.has(`${file}:${ref.key}`)) return;
    const pin = { key: ref.key, sha256: ref.sha256, sizeBytes: ref.sizeBytes };
    throw new StoredFileMismatch(file, pin, {
      kind: 'differs',
      sizeBytes: ref.sizeBytes + 1,
      sha256: 'f'.repeat(64),
    });
  }

  async generate(input: {
    pkg: PackageRecord;
    approvals: ApprovalRecordEntry[];
    signedBy?: { id: string; name: string; email: string; role: string };
    at: Date;
  }): Promise<ArtefactRef> {
    if (this.failGenerate) throw this.failGenerate;
    this.count += 1;
    const ref: ArtefactRef = {
      key: `packages/${input.pkg.id}/${this.count}.xml`,
      sizeBytes: 100 + this.count,
      sha256: this.count.toString(16).padStart(64, '0'),
      signed: input.pkg.signed,
      generatedAt: input.at.toISOString(),
      // a signed package's statement, pinned as the real store pins it (a stand-in digest)
      ...(input.pkg.signed
        ? {
            statementKey: `packages/${input.pkg.id}/${this.count}.provenance-statement.json`,
            statementSha256: (this.count + 1).toString(16).padStart(64, '0'),
          }
        : {}),
    };
    this.stored.set(ref.key, {
      ref,
      packageId: input.pkg.id,
      approvals: input.approvals,
      signedBy: input.signedBy,
    });
    return ref;
  }

  keyFor(pkg: Pick<PackageRecord, 'id'>, at: Date): string {
    return `packages/${pkg.id}/${at.toISOString()}.xml`;
  }

  async download(ref: ArtefactRef): Promise<{ base64?: string; url?: string }> {
    if (!this.stored.has(ref.key)) throw new Error(`no artefact ${ref.key}`);
    this.refuseSwapped(ref, 'xml');
    return { base64: Buffer.from(`<xml key="${ref.key}"/>`).toString('base64') };
  }

  async statement(ref: ArtefactRef): Promise<string | null> {
    if (!this.stored.has(ref.key) || !ref.signed) return null;
    this.refuseSwapped(ref, 'statement');
    const statement = Buffer.from(`{"memory":"${ref.key}"}`).toString('base64');
    return `{"payloadType":"application/vnd.in-toto+json","payload":"${statement}","signatures":[]}\n`;
  }

  async verifyStored(ref: ArtefactRef): Promise<void> {
    if (!this.stored.has(ref.key)) throw new StoredFileMismatch('xml', ref, { kind: 'missing' });
    this.refuseSwapped(ref, 'xml');
  }

  async remove(ref: ArtefactRef): Promise<void> {
    this.stored.delete(ref.key);
  }

  async publicKeyPem(): Promise<{ pem: string; keyId: string }> {
    return { pem: '-----BEGIN PUBLIC KEY-----\nmemory\n-----END PUBLIC KEY-----\n', keyId: 'memory' };
  }
}
