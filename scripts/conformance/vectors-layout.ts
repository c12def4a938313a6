import { acceptedByBoth, type Def, inCategory, refusedBy, type VectorDef } from './vector';
import { edited, resigned, T } from './vectors-package';

/**
 * The XML layout (§3: the file is exactly the portal's rendering, so another spelling of the same XML is
 * refused) and the approval records (§3.3, §7 rules 6 and 7). The approval vectors are re-signed by the
 * release key with a consistent readable copy: only the record itself breaks the rule.
 */

const TEXT = 'release-signed-patch-text';
const EMPTY_NOTE = 'release-signed-patch-empty-note';
const NOTE = '<note>Conformance vector release-signed-patch.</note>';

const LAYOUT: Def[] = [
  {
    id: 'xml-byte-order-mark',
    description: 'The file begins with a UTF-8 byte order mark (EF BB BF) before the XML declaration.',
    ...refusedBy('XML structure'),
    files: async (c) => ({
      package: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(c.xml(T))]),
    }),
  },
  {
    id: 'xml-crlf-line-endings',
    description: 'Lines end with CR LF instead of LF.',
    ...refusedBy('Layout'),
    files: edited(T, (x) => x.replace(/\n/g, '\r\n')),
  },
  {
    id: 'xml-indentation-changed',
    description: 'One line indented by three spaces instead of two.',
    ...refusedBy('Layout'),
    files: edited(T, (x) => x.replace('\n  <dcc ', '\n   <dcc ')),
  },
  {
    id: 'xml-attribute-order-changed',
    description: 'The attributes of <dcc> in another order (the same XML to a parser).',
    ...refusedBy('Layout'),
    files: edited(T, (x) =>
      x.replace('<dcc id="dcc-7" deviceId="PUMP-7"', '<dcc deviceId="PUMP-7" id="dcc-7"'),
    ),
  },
  {
    id: 'xml-single-quotes',
    description: 'An attribute value in single quotes (the same XML to a parser).',
    ...refusedBy('Layout'),
    files: edited(T, (x) => x.replace('<dcc id="dcc-7"', "<dcc id='dcc-7'")),
  },
  {
    id: 'xml-character-reference',
    description:
      'A letter of <name> written as the character reference &#67; (the same text to a parser; §4.1 writes no such escape).',
    ...refusedBy('Layout'),
    files: edited(T, (x) => x.replace('<name>Conformance', '<name>&#67;onformance')),
  },
  {
    id: 'xml-raw-greater-than',
    description: 'A raw > in the note where the portal writes &gt; (the same text to a parser).',
    ...refusedBy('Layout'),
    files: edited(TEXT, (x) => x.replace('&lt;angle&gt;', '&lt;angle>')),
  },
  {
    id: 'xml-comment',
    description: 'An XML comment inside the file (§3.1: none).',
    ...refusedBy('XML structure'),
    files: edited(T, (x) => x.replace('  <metadata>\n', '  <!-- reviewed -->\n  <metadata>\n')),
  },
  {
    id: 'xml-doctype',
    description: 'A DOCTYPE after the XML declaration (§3.1: none, no DTD, no entities).',
    ...refusedBy('XML structure'),
    files: edited(T, (x) => x.replace('?>\n', '?>\n<!DOCTYPE firmwarePackage>\n')),
  },
  {
    id: 'xml-processing-instruction',
    description: 'A processing instruction other than the XML declaration.',
    ...refusedBy('XML structure'),
    files: edited(T, (x) => x.replace('  <metadata>\n', '  <?review ok?>\n  <metadata>\n')),
  },
  {
    id: 'xml-cdata',
    description: 'The note in a CDATA section (the same text to a parser).',
    ...refusedBy('XML structure'),
    files: edited(T, (x) =>
      x.replace(NOTE, '<note><![CDATA[Conformance vector release-signed-patch.]]></note>'),
    ),
  },
  {
    id: 'xml-empty-note-self-closing',
    description: 'An empty note written <note/>; the portal writes <note></note> (§3.1).',
    ...refusedBy('Layout'),
    files: edited(EMPTY_NOTE, (x) => x.replace('<note></note>', '<note/>')),
  },
  {
    id: 'xml-no-final-line-feed',
    description: 'The file does not end with LF.',
    ...refusedBy('Layout'),
    files: edited(T, (x) => x.slice(0, -1)),
  },
  {
    id: 'xml-extra-final-line-feed',
    description: 'An empty line after </firmwarePackage>.',
    ...refusedBy('Layout'),
    files: edited(T, (x) => `${x}\n`),
  },
  {
    id: 'xml-declaration-single-quotes',
    description: 'The XML declaration written with single quotes.',
    ...refusedBy('Layout'),
    files: edited(T, (x) =>
      x.replace('<?xml version="1.0" encoding="UTF-8"?>', "<?xml version='1.0' encoding='UTF-8'?>"),
    ),
  },
  {
    id: 'xml-namespace-changed',
    description: 'Another namespace on <firmwarePackage>.',
    ...refusedBy('XML structure'),
    files: edited(T, (x) =>
      x.replace('urn:firmware-release-portal:package:1', 'urn:firmware-release-portal:package:2'),
    ),
  },
  {
    id: 'xml-format-version-2',
    description: 'formatVersion="2" (this document is version 1).',
    ...refusedBy('XML structure'),
    files: edited(T, (x) => x.replace('formatVersion="1"', 'formatVersion="2"')),
  },
  {
    id: 'xml-elements-reordered',
    description: '<dcc> before <metadata>.',
    ...refusedBy('XML structure'),
    files: edited(T, (x) => {
      const dcc = /\n {2}<dcc [^\n]*/.exec(x)![0];
      return x.replace(dcc, '').replace('\n  <metadata>', `${dcc}\n  <metadata>`);
    }),
  },
  {
    id: 'xml-unknown-element',
    description: 'An element the format does not have.',
    ...refusedBy('XML structure'),
    files: edited(T, (x) => x.replace('  <manifest ', '  <comment>hello</comment>\n  <manifest ')),
  },
  {
    id: 'xml-readable-name-differs',
    description: "The readable <name> is not the manifest's package.name (§4.2).",
    ...refusedBy('Readable copy matches the signed manifest'),
    files: edited(T, (x) => x.replace('<name>Conformance', '<name>Approved')),
  },
  {
    id: 'xml-readable-approver-differs',
    description: "An <approval @name> that is not the manifest's approver (§4.2).",
    ...refusedBy('Readable copy matches the signed manifest'),
    files: edited(T, (x) => x.replace('name="Tim Lead"', 'name="Tom Lead"')),
  },
  {
    id: 'xml-extra-attribute',
    description: 'An attribute the format does not have, on <payload>.',
    ...refusedBy('Readable copy matches the signed manifest'),
    files: edited(T, (x) => x.replace('<payload fileName=', '<payload compressed="no" fileName=')),
  },
  {
    id: 'xml-payload-digest-missing',
    description: 'The <payloadDigest> element removed.',
    ...refusedBy('XML structure'),
    files: edited(T, (x) => x.replace(/ {2}<payloadDigest [^\n]*\n/, '')),
  },
];

const APPROVALS: Def[] = [
  {
    id: 'approvals-none',
    description: 'No approval recorded ("approvals":[]), signed by the release key (§7 rule 7).',
    ...refusedBy('Signature records'),
    files: resigned(T, {
      manifest: (m) => {
        m.approvals = [];
      },
    }),
  },
  {
    id: 'approvals-one',
    description:
      "A single approval: the format asks for at least one; which roles approve is the portal's policy, not a device rule (§7 rule 7).",
    ...acceptedByBoth,
    files: resigned(T, {
      manifest: (m) => {
        m.approvals = m.approvals.slice(0, 1);
      },
    }),
  },
  {
    id: 'approval-empty-name',
    description: 'An approval with an empty printed name (§7 rule 7).',
    ...refusedBy('Signature records'),
    files: resigned(T, {
      manifest: (m) => {
        m.approvals[0]!.approver.name = '';
      },
    }),
  },
  {
    id: 'approval-empty-role',
    description: 'An approval with an empty role (§7 rule 7).',
    ...refusedBy('Signature records'),
    files: resigned(T, {
      manifest: (m) => {
        m.approvals[1]!.approver.role = '';
      },
    }),
  },
  {
    id: 'approval-empty-meaning',
    description: 'An approval with an empty meaning (§7 rule 7).',
    ...refusedBy('Signature records'),
    files: resigned(T, {
      manifest: (m) => {
        m.approvals[2]!.meaning = '';
      },
    }),
  },
  {
    id: 'approval-unknown-role',
    description: 'An approval in a role code this portal does not know: a note, not a refusal (§3.3).',
    ...acceptedByBoth,
    files: resigned(T, {
      manifest: (m) => {
        m.approvals[3]!.approver.role = 'QUALITY_MANAGER';
      },
    }),
  },
  {
    id: 'approval-own-meaning',
    description: 'An approval stating a meaning of its own: a note, not a refusal (§3.3).',
    ...acceptedByBoth,
    files: resigned(T, {
      manifest: (m) => {
        m.approvals[0]!.meaning = 'Reviewed and approved.';
      },
    }),
  },
  {
    id: 'approval-time-offset',
    description: 'An approval time with a +01:00 offset instead of Z (§1, §7 rule 6).',
    ...refusedBy('Signature records'),
    files: resigned(T, {
      manifest: (m) => {
        m.approvals[0]!.approvedAt = '2026-04-02T11:00:00.000+01:00';
      },
    }),
  },
  {
    id: 'approval-time-no-milliseconds',
    description: 'An approval time without milliseconds (§1, §7 rule 6).',
    ...refusedBy('Signature records'),
    files: resigned(T, {
      manifest: (m) => {
        m.approvals[0]!.approvedAt = '2026-04-02T10:00:00Z';
      },
    }),
  },
  {
    id: 'approval-time-impossible',
    description: 'An approval time on 30 February (§1: a real instant).',
    ...refusedBy('Signature records'),
    files: resigned(T, {
      manifest: (m) => {
        m.approvals[0]!.approvedAt = '2026-02-30T10:00:00.000Z';
      },
    }),
  },
  {
    id: 'signature-record-empty-name',
    description: "The signature record's printed name empty (§7 rule 7).",
    ...refusedBy('Signature records'),
    files: resigned(T, {
      manifest: (m) => {
        m.signature!.signedBy.name = '';
      },
    }),
  },
  {
    id: 'created-at-no-milliseconds',
    description: 'package.createdAt without milliseconds (§1, §7 rule 6).',
    ...refusedBy('Manifest'),
    files: resigned(T, {
      manifest: (m) => {
        m.package.createdAt = '2026-04-01T08:00:00Z';
      },
    }),
  },
  {
    id: 'generated-at-offset',
    description: 'package.generatedAt with an offset instead of Z (§1, §7 rule 6).',
    ...refusedBy('Manifest'),
    files: resigned(T, {
      manifest: (m) => {
        m.package.generatedAt = '2026-04-03T12:00:00.000+02:00';
      },
    }),
  },
];

export const LAYOUT_VECTORS: VectorDef[] = [
  ...inCategory('xml-layout', LAYOUT),
  ...inCategory('approvals', APPROVALS),
];
