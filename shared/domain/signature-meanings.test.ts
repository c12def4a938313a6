import { describe, expect, it } from 'vitest';
import {
  DEVELOPMENT_MEANINGS,
  SIGNATURE_MEANINGS,
  signatureMeaning,
  signatureRecord,
} from './signature-meanings';

describe('what a signature means, by package type', () => {
  it('a development package is approved and signed for testing, never "for release"', () => {
    for (const type of ['DEV_SIGNED', 'DEV_UNSIGNED']) {
      expect(signatureMeaning('approve', type)).toBe(
        'I approve this development package for testing on development devices, not for release: I reviewed its content, header and DCC',
      );
      expect(signatureMeaning('sign', type)).toBe(DEVELOPMENT_MEANINGS.sign);
      expect(signatureMeaning('reject', type)).toBe(DEVELOPMENT_MEANINGS.reject);
      expect(signatureMeaning('approve', type)).not.toMatch(/^I approve this package for release/);
    }
  });

  it('a release package keeps the release meanings; actions without a development text keep theirs', () => {
    expect(signatureMeaning('approve', 'RELEASE_SIGNED')).toBe(SIGNATURE_MEANINGS.approve);
    expect(signatureMeaning('sign', 'RELEASE_SIGNED')).toBe(SIGNATURE_MEANINGS.sign);
    expect(signatureMeaning('approve')).toBe(SIGNATURE_MEANINGS.approve);
    expect(signatureMeaning('rejectSigning', 'DEV_SIGNED')).toBe(SIGNATURE_MEANINGS.rejectSigning);
  });

  it('the audit record carries the meaning the signer read', () => {
    const who = { name: 'Leo Lead', userRole: 'TECHNICAL_LEADER' };
    expect(signatureRecord('approve', who, 't', 'DEV_UNSIGNED').meaning).toBe(DEVELOPMENT_MEANINGS.approve);
    expect(signatureRecord('approve', who, 't', 'RELEASE_UNSIGNED').meaning).toBe(SIGNATURE_MEANINGS.approve);
  });
});
