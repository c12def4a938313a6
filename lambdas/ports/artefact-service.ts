import type { Dcc } from '../../shared/api/contracts/dcc';
import type { Stage } from '../../shared/api/contracts/resources';
import type { StoredFile, StoredFilePin, StoredFileProblem } from '../../shared/domain/stored-file';
import type { ArtefactRef, PackageRecord } from './package-repository';
import type { ResourceRecord } from './resource-repository';

/** One approval as the package records it: who, in which role, when. */
export interface ApprovalRecordEntry {
  id: string;
  name: string;
  email: string;
  role: string;
  decidedAt: string;
}

/** The DCC values the XML carries: the package's own copy of them (decision 192). */
export type ArtefactDcc = Pick<Dcc, 'id' | 'deviceId' | 'telemetryType' | 'deviceLimit' | 'messageLimit'>;

/** Builds the XML package of DESIGN §3 and stores it; the returned ref is committed only after this succeeds. */
export interface ArtefactService {
  generate(input: {
    pkg: PackageRecord;
    resource: ResourceRecord;
    dcc: ArtefactDcc;
    approvals: ApprovalRecordEntry[];
    signedBy?: { id: string; name: string; email: string; role: string };
    at: Date;
    /** told the payload bytes read so far (the generation's progress) */
    onProgress?: (bytesDone: number) => void;
  }): Promise<ArtefactRef>;
  /** the key `generate` writes for a package generated at `at` (a failed generation's clean-up removes it) */
  keyFor(pkg: Pick<PackageRecord, 'id' | 'name'>, at: Date): string;
  /**
   * The stored XML as base64 when it is small, else a presigned URL (of the pinned version, where versioned).
   * Throws StoredFileMismatch when the stored file is not the one generated (decision 302).
   */
  download(ref: ArtefactRef, fileName: string): Promise<{ base64?: string; url?: string }>;
  /**
   * The signed provenance statement's file (decision 279) as stored, byte for byte: one line of compact
   * JSON and one LF (docs/package-format.md §11); null when the package has none. Throws
   * StoredFileMismatch when the stored statement is not the one signed (decision 302).
   */
  statement(ref: ArtefactRef): Promise<string | null>;
  /** Resolves when the stored XML is the one generated; throws StoredFileMismatch otherwise (decision 302). */
  verifyStored(ref: ArtefactRef): Promise<void>;
  /** removes the XML and its provenance statement */
  remove(ref: ArtefactRef): Promise<void>;
  /** the public half of a stage's signing key (decision 295): the release key unless told otherwise */
  publicKeyPem(stage?: Stage): Promise<{ pem: string; keyId: string }>;
}

/**
 * The SHA-256 and size of a model's stored metadata file, read now: pins it on a package created from a
 * model uploaded before its digest was recorded (decision 190). Throws when the file is missing.
 */
export type MetadataDigest = (resource: ResourceRecord) => Promise<{ sizeBytes: number; sha256: string }>;

/**
 * A stored file of a package is not the one generation wrote (decision 302): what it is, where, what was
 * recorded and how it differs. The package services refuse the call with a 409 and log it for the alarm.
 */
export class StoredFileMismatch extends Error {
  override name = 'StoredFileMismatch';
  constructor(
    readonly file: StoredFile,
    readonly pin: StoredFilePin,
    readonly problem: StoredFileProblem,
  ) {
    super(`stored ${file} ${pin.key} does not match its record: ${problem.kind}`);
  }
}
