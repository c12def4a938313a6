import { assertNever } from './assert-never';
import { utcMinute } from './package-deletion';

/**
 * A generated package's stored files are pinned to what generation wrote (decision 302): the XML and the
 * provenance statement, each by its SHA-256 (and S3 version where the bucket keeps versions). These are
 * the ways a stored file can differ from its record, and the words the refusals use.
 */

/** Which stored file of a package. */
export type StoredFile = 'xml' | 'statement';

/** How a stored file differs from what generation recorded. */
export type StoredFileProblem =
  /** nothing under the key (or the pinned version is gone) */
  | { kind: 'missing' }
  /** a versioned bucket: another version was written over the pinned one (`versionId`: the current one) */
  | { kind: 'replaced'; versionId: string | null }
  /** the bytes read hash to something else */
  | { kind: 'differs'; sizeBytes: number; sha256: string }
  /** a statement stored before statements were pinned, which names another package */
  | { kind: 'otherPackage'; packageId: string };

/** What generation recorded of a stored file. */
export interface StoredFilePin {
  key: string;
  sha256: string;
  /** recorded for the XML; a statement's size is not recorded */
  sizeBytes?: number;
  versionId?: string;
}

/** Where a stored file is checked: serving the XML, completing a delivery, serving the statement. */
export type StoredFileCheck = 'download' | 'delivery' | 'statement';

const short = (sha256: string) => `${sha256.slice(0, 12)}…`;

/** The problem in a few words, for the refusal (the full digests go to the log line). */
export function storedFileProblemText(problem: StoredFileProblem, pin: Omit<StoredFilePin, 'key'>): string {
  switch (problem.kind) {
    case 'missing':
      return 'it is missing from storage';
    case 'replaced':
      return 'another version of it was written to storage after it was generated';
    case 'differs': {
      // sizes where the record has one to compare with (a statement's size is not recorded)
      const form = (size: number, sha256: string) =>
        pin.sizeBytes === undefined
          ? `SHA-256 ${short(sha256)}`
          : `${size} bytes with SHA-256 ${short(sha256)}`;
      return `it is ${form(problem.sizeBytes, problem.sha256)}, not ${form(pin.sizeBytes ?? 0, pin.sha256)} as recorded`;
    }
    case 'otherPackage':
      return `it is the statement of another package (${problem.packageId})`;
    default:
      return assertNever(problem, 'stored file problem');
  }
}

/** The 409 of each check, naming what is wrong and when the file was made; nothing was served or recorded. */
export const STORED_FILE_ERR: Record<StoredFileCheck, (generatedAt: string, why: string) => string> = {
  download: (at, why) =>
    `The stored package file does not match the one generated on ${utcMinute(at)} (${why}); it was not served — tell an admin`,
  statement: (at, why) =>
    `The stored provenance statement does not match the one signed on ${utcMinute(at)} (${why}); it was not served — tell an admin`,
  delivery: (at, why) =>
    `The stored package file does not match the one generated on ${utcMinute(at)} (${why}), so the package was not delivered — tell an admin. Your approval was not recorded: once the file is restored, approve the delivery again to deliver it`,
};
