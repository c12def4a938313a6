import { describe, expect, it } from 'vitest';
import { PACKAGE_TYPES } from '../../../shared/api/contracts/packages';
import { nameViaToken, personalName } from '../../../shared/domain/access-tokens';
import { PACKAGE_TYPE_LABELS } from '../../../shared/domain/package-type-label';
import { ROLES } from '../../../shared/domain/roles';
import { MAIL_TEXTS, quoted } from './mail-texts';

/**
 * Decision 195: every workflow mail starts with the portal's own link and the facts; words
 * other people typed (the initiator's note, a rejection or deletion reason) come after, quoted line by line
 * and marked as theirs; roles appear by their labels, never their codes.
 */
const APP = 'https://portal.example';
const initiator = {
  id: 'u1',
  name: 'Ida Initiator',
  email: 'ida@example.com',
  userRole: 'DESIGN_ENGINEER_DEV' as const,
};
const lead = { id: 'u2', name: 'Leo Lead', email: 'leo@example.com', userRole: 'TECHNICAL_LEADER' as const };
const release = {
  id: 'u3',
  name: 'Remy Release',
  email: 'remy@example.com',
  userRole: 'SW_FW_RELEASE_ENGINEER' as const,
};
const pkg = {
  id: 'p-1',
  name: 'Pacer 1.0',
  type: 'RELEASE_SIGNED' as const,
  resourceName: 'pacer.bin',
  note: 'Fixes the pacing bug.\nDetails: https://evil.example/packages/open/p-1',
  initiator,
};
const OWN_LINK = `${APP}/packages/open/p-1`;
const tombstone = {
  id: 'p-1',
  name: 'Pacer 1.0',
  status: 'PENDING_APPROVAL' as const,
  deletedAt: '2026-11-27T06:40:12.000Z',
  deletedBy: { id: 'a1', name: 'Ada Admin', userRole: 'ADMIN' },
  reason: 'Built from the wrong branch.\nSee https://evil.example/x',
};

const DELIVERED_FILE = {
  generatedAt: '2026-11-27T06:40:12.000Z',
  sizeBytes: 5321,
  sha256: 'ab'.repeat(32),
  versionId: '3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY',
};

const EVERY_MAIL = {
  approvalRequested: MAIL_TEXTS.approvalRequested(lead, pkg, initiator, APP),
  deliveryRequested: MAIL_TEXTS.deliveryRequested(lead, pkg, release, APP),
  signatureRequested: MAIL_TEXTS.signatureRequested(release, pkg, APP),
  generated: MAIL_TEXTS.generated(initiator, pkg, APP),
  signed: MAIL_TEXTS.signed(initiator, pkg, release, APP),
  rejected: MAIL_TEXTS.rejected(initiator, pkg, lead, 'CRC wrong.\nSee https://evil.example/y', APP),
  signingRefused: MAIL_TEXTS.rejected(initiator, pkg, release, 'Wrong key slot', APP, 'signing'),
  deliveryRejectedToInitiator: MAIL_TEXTS.rejected(initiator, pkg, lead, 'Wrong fleet', APP, 'delivery'),
  deliveryRejected: MAIL_TEXTS.deliveryRejected(release, pkg, lead, 'Wrong fleet', APP),
  delivered: MAIL_TEXTS.delivered(initiator, pkg, APP, DELIVERED_FILE),
  deleted: MAIL_TEXTS.deleted(lead, pkg, tombstone, APP),
};

const linksOf = (text: string) => text.match(/https?:\/\/\S+/g) ?? [];

describe('workflow mail layout', () => {
  it('puts the approval request in order: greeting, who asks what, the link, the facts, then the quoted note', () => {
    expect(EVERY_MAIL.approvalRequested.text).toBe(
      [
        'Hello Leo Lead,',
        '',
        'Ida Initiator (Design Engineer (dev)) asks you to approve the package "Pacer 1.0".',
        `Open it here: ${OWN_LINK}`,
        '',
        'Package: Pacer 1.0',
        'Type: Release package, signed',
        'Resource: pacer.bin',
        'Initiator: Ida Initiator (Design Engineer (dev))',
        'Asked by: Ida Initiator (Design Engineer (dev))',
        'Asked of you: your approval, as Technical Leader',
        '',
        "Ida Initiator's note (the initiator's own words, quoted as written):",
        '> Fixes the pacing bug.',
        '> Details: https://evil.example/packages/open/p-1',
      ].join('\n'),
    );
  });

  it.each(Object.entries(EVERY_MAIL))(
    '%s: the portal link is the first link, before any typed words',
    (_, mail) => {
      const links = linksOf(mail.text);
      expect(links[0]).toBe(OWN_LINK);
      const lines = mail.text.split('\n');
      const linkLine = lines.indexOf(`Open it here: ${OWN_LINK}`);
      // the link comes within the first lines, right after the sentence saying what happened
      expect(linkLine).toBeGreaterThan(-1);
      expect(linkLine).toBeLessThanOrEqual(3);
      // every other link is inside a quote ("> "), after the portal's link
      lines.forEach((l, i) => {
        if (i !== linkLine && /https?:\/\//.test(l)) {
          expect(l.startsWith('> ')).toBe(true);
          expect(i).toBeGreaterThan(linkLine);
        }
      });
    },
  );

  it.each(Object.entries(EVERY_MAIL))('%s: names roles by their labels, never by their codes', (_, mail) => {
    for (const code of ROLES) expect(mail.text).not.toContain(code);
    for (const code of ROLES) expect(mail.subject).not.toContain(code);
  });

  it('marks the note as the initiator’s words in every mail that carries it, and keeps it last', () => {
    for (const mail of [
      EVERY_MAIL.approvalRequested,
      EVERY_MAIL.deliveryRequested,
      EVERY_MAIL.signatureRequested,
    ]) {
      const lines = mail.text.split('\n');
      const heading = lines.indexOf("Ida Initiator's note (the initiator's own words, quoted as written):");
      expect(heading).toBeGreaterThan(lines.findIndex((l) => l.startsWith('Open it here: ')));
      expect(lines.slice(heading + 1)).toEqual([
        '> Fixes the pacing bug.',
        '> Details: https://evil.example/packages/open/p-1',
      ]);
    }
  });

  it('says who asks and what is asked of the reader, with role labels', () => {
    expect(EVERY_MAIL.deliveryRequested.text).toContain(
      'Remy Release (SW/FW Release Engineer) asks you to approve the delivery of the package "Pacer 1.0".',
    );
    expect(EVERY_MAIL.deliveryRequested.text).toContain(
      'Asked of you: your approval of its delivery to devices, as Technical Leader',
    );
    expect(EVERY_MAIL.signatureRequested.text).toContain(
      'Asked of you: your signature, as SW/FW Release Engineer',
    );
    expect(EVERY_MAIL.rejected.text).toContain(
      'Leo Lead (Technical Leader) rejected the package "Pacer 1.0" in approval.',
    );
    expect(EVERY_MAIL.signed.text).toContain('Signed by: Remy Release (SW/FW Release Engineer)');
  });

  it('quotes a rejection reason after the link, marked as the rejecter’s words', () => {
    const lines = EVERY_MAIL.rejected.text.split('\n');
    expect(lines.slice(-3)).toEqual([
      "Leo Lead's reason, in their own words (quoted as written):",
      '> CRC wrong.',
      '> See https://evil.example/y',
    ]);
  });

  it('tells the people waiting on a deleted package who deleted it, when and why', () => {
    const mail = EVERY_MAIL.deleted;
    expect(mail.subject).toBe('Package deleted: Pacer 1.0');
    expect(mail.text).toBe(
      [
        'Hello Leo Lead,',
        '',
        'Ada Admin (Admin) deleted the package "Pacer 1.0" on 27 Nov 2026, 06:40 UTC. Nothing waits for you on it any more.',
        `Open it here: ${OWN_LINK}`,
        '',
        'Package: Pacer 1.0',
        'Type: Release package, signed',
        'Resource: pacer.bin',
        'Deleted by: Ada Admin (Admin)',
        'Deleted on: 27 Nov 2026, 06:40 UTC',
        '',
        "Ada Admin's reason, in their own words (quoted as written):",
        '> Built from the wrong branch.',
        '> See https://evil.example/x',
      ].join('\n'),
    );
  });

  it('the delivered mail names the file delivered: when it was generated, its size, SHA-256 and storage version', () => {
    expect(EVERY_MAIL.delivered.text.split('\n').slice(-4)).toEqual([
      'Resource: pacer.bin',
      'File delivered: generated on 27 Nov 2026, 06:40 UTC, 5321 bytes',
      `SHA-256: ${'ab'.repeat(32)}`,
      'Storage version: 3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY',
    ]);
    // the local stack keeps no versions: no line for one
    const { versionId: _, ...local } = DELIVERED_FILE;
    expect(MAIL_TEXTS.delivered(initiator, pkg, APP, local).text).not.toContain('Storage version');
  });

  it('quotes every kind of line break, so no line of typed words escapes the quote', () => {
    expect(quoted('Said:', 'a\r\nb\rc\u2028d\u2029e\u0085f')).toBe('Said:\n> a\n> b\n> c\n> d\n> e\n> f');
  });

  it('a rejection mail names the step that was refused, in its subject and its first line', () => {
    const said = (m: { subject: string; text: string }) => [m.subject, m.text.split('\n')[2]];
    expect(said(EVERY_MAIL.rejected)).toEqual([
      'Approval rejected: Pacer 1.0',
      'Leo Lead (Technical Leader) rejected the package "Pacer 1.0" in approval. The package is rejected: it will not be generated.',
    ]);
    expect(said(EVERY_MAIL.signingRefused)).toEqual([
      'Signature refused: Pacer 1.0',
      'Remy Release (SW/FW Release Engineer) refused to sign the package "Pacer 1.0". The package is rejected: it will not be released.',
    ]);
    const delivery =
      'Leo Lead (Technical Leader) rejected the delivery of the package "Pacer 1.0". The package stays approved and is not delivered to devices; the release engineer may deliver it again.';
    expect(said(EVERY_MAIL.deliveryRejectedToInitiator)).toEqual(['Delivery rejected: Pacer 1.0', delivery]);
    expect(said(EVERY_MAIL.deliveryRejected)).toEqual(['Delivery rejected: Pacer 1.0', delivery]);
    expect(EVERY_MAIL.deliveryRejected.text.startsWith('Hello Remy Release,\n')).toBe(true);
    expect(EVERY_MAIL.signingRefused.text).toContain(
      'Signature refused by: Remy Release (SW/FW Release Engineer)',
    );
    expect(EVERY_MAIL.deliveryRejected.text).toContain('Delivery rejected by: Leo Lead (Technical Leader)');
    expect(EVERY_MAIL.rejected.text).toContain('Rejected in approval by: Leo Lead (Technical Leader)');
  });

  it.each(Object.entries(EVERY_MAIL))('%s: names the package type in words, never by its code', (_, mail) => {
    expect(mail.text.split('\n')).toContain('Type: Release package, signed');
    for (const code of PACKAGE_TYPES) {
      expect(mail.text).not.toContain(code);
      expect(mail.subject).not.toContain(code);
    }
  });

  it.each(PACKAGE_TYPES.map((t) => [t, PACKAGE_TYPE_LABELS[t]]))(
    'a %s package is "%s" in the mails',
    (type, label) => {
      const text = MAIL_TEXTS.generated(initiator, { ...pkg, type }, APP).text;
      expect(text.split('\n')).toContain(`Type: ${label}`);
      expect(text).not.toContain(type);
    },
  );

  it('no mail says "Package rejected" or shows a role code', () => {
    for (const m of Object.values(EVERY_MAIL)) {
      expect(m.subject).not.toMatch(/^Package rejected/);
      for (const code of ROLES) expect(m.text).not.toContain(code);
    }
  });
});

describe('a package made through a pipeline token', () => {
  // the record names the token that acted; the mails to the person greet the person
  const viaToken = { ...initiator, name: nameViaToken('Ida Initiator', "ci 'nightly' (access token 'x')") };
  const made = { ...pkg, initiator: viaToken };
  const toInitiator = {
    generated: MAIL_TEXTS.generated(viaToken, made, APP),
    signed: MAIL_TEXTS.signed(viaToken, made, release, APP),
    rejected: MAIL_TEXTS.rejected(viaToken, made, lead, 'CRC wrong', APP),
    delivered: MAIL_TEXTS.delivered(viaToken, made, APP, DELIVERED_FILE),
  };

  it.each(Object.entries(toInitiator))('the %s mail greets the initiator by name only', (_, m) => {
    expect(m.text.split('\n')[0]).toBe('Hello Ida Initiator,');
  });

  it('the approval request greets its reader and still says which token started the package', () => {
    const text = MAIL_TEXTS.approvalRequested(lead, made, viaToken, APP).text;
    expect(text.split('\n')[0]).toBe('Hello Leo Lead,');
    expect(text).toContain(`Initiator: Ida Initiator (access token 'ci 'nightly' (access token 'x')')`);
  });

  it('takes the person from a recorded name, whatever the token is called', () => {
    expect(personalName(viaToken.name)).toBe('Ida Initiator');
    expect(personalName('Ida Initiator')).toBe('Ida Initiator');
  });
});
