import type { ApprovalRecordEntry, ArtefactService } from '../../ports/artefact-service';
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
 * `failGenerate` makes the next generations fail (a storage or signer outage).
 */
export class MemoryArtefacts implements ArtefactService {
  readonly stored = new Map<string, GeneratedArtefact>();
  failGenerate: Error | undefined;
  private count = 0;

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
    return { base64: Buffer.from(`<xml key="${ref.key}"/>`).toString('base64') };
  }

  async statement(ref: ArtefactRef): Promise<string | null> {
    if (!this.stored.has(ref.key) || !ref.signed) return null;
    const statement = Buffer.from(`{"memory":"${ref.key}"}`).toString('base64');
    return `{"payloadType":"application/vnd.in-toto+json","payload":"${statement}","signatures":[]}\n`;
  }

  async remove(ref: ArtefactRef): Promise<void> {
    this.stored.delete(ref.key);
  }

  async publicKeyPem(): Promise<{ pem: string; keyId: string }> {
    return { pem: '-----BEGIN PUBLIC KEY-----\nmemory\n-----END PUBLIC KEY-----\n', keyId: 'memory' };
  }
}
