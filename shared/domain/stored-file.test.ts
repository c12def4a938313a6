import { describe, expect, it } from 'vitest';
import { STORED_FILE_ERR, storedFileProblemText } from './stored-file';

const XML_PIN = { sha256: 'a'.repeat(64), sizeBytes: 100 };
const STATEMENT_PIN = { sha256: 'b'.repeat(64) };

describe('the words of a stored file refusal (decision 302)', () => {
  it('names what differs, with sizes only where the record has one', () => {
    const found = { kind: 'differs', sizeBytes: 90, sha256: 'c'.repeat(64) } as const;
    expect(storedFileProblemText(found, XML_PIN)).toBe(
      'it is 90 bytes with SHA-256 cccccccccccc…, not 100 bytes with SHA-256 aaaaaaaaaaaa… as recorded',
    );
    expect(storedFileProblemText(found, STATEMENT_PIN)).toBe(
      'it is SHA-256 cccccccccccc…, not SHA-256 bbbbbbbbbbbb… as recorded',
    );
    expect(storedFileProblemText({ kind: 'missing' }, XML_PIN)).toBe('it is missing from storage');
    expect(storedFileProblemText({ kind: 'replaced', versionId: 'v2' }, XML_PIN)).toBe(
      'another version of it was written to storage after it was generated',
    );
    expect(storedFileProblemText({ kind: 'otherPackage', packageId: 'p-a' }, STATEMENT_PIN)).toBe(
      'it is the statement of another package (p-a)',
    );
  });

  it('says when the file was made, that nothing was served or delivered, and whom to tell', () => {
    const at = '2026-11-27T06:40:12.000Z';
    expect(STORED_FILE_ERR.download(at, 'it is missing from storage')).toBe(
      'The stored package file does not match the one generated on 27 Nov 2026, 06:40 UTC (it is missing from storage); it was not served — tell an admin',
    );
    expect(STORED_FILE_ERR.statement(at, 'x')).toBe(
      'The stored provenance statement does not match the one signed on 27 Nov 2026, 06:40 UTC (x); it was not served — tell an admin',
    );
    expect(STORED_FILE_ERR.delivery(at, 'x')).toBe(
      'The stored package file does not match the one generated on 27 Nov 2026, 06:40 UTC (x), so the package was not delivered — tell an admin. Your approval was not recorded: once the file is restored, approve the delivery again to deliver it',
    );
  });
});
