import type { BaseSpec } from './bases';
import { acceptedByBoth, developmentOnly, refusedBy, type VectorDef } from './vector';

/** The real packages of the corpus (made by the portal's generation code) and their vectors. */

/** A note with every kind of text §4.1 and §5 settle: escapes, line breaks, non-ASCII, controls, a lone surrogate. */
export const TEXT_NOTE =
  'Line one.\nTab\there; CR\rend; "double" \'single\'; <angle> & amp; Grüße 漢字 🚀; controls \u0001 \u001f; lone \ud800 surrogate.';

export const BASES: readonly BaseSpec[] = [
  {
    id: 'release-signed-patch',
    type: 'RELEASE_SIGNED',
    resourceType: 'PATCH',
    provenance: true,
    sbom: 'CycloneDX',
  },
  {
    id: 'release-signed-model',
    type: 'RELEASE_SIGNED',
    resourceType: 'MODEL',
    provenance: true,
    sbom: 'SPDX',
  },
  { id: 'release-signed-patch-plain', type: 'RELEASE_SIGNED', resourceType: 'PATCH' },
  { id: 'release-signed-model-plain', type: 'RELEASE_SIGNED', resourceType: 'MODEL' },
  { id: 'release-unsigned-patch', type: 'RELEASE_UNSIGNED', resourceType: 'PATCH' },
  { id: 'release-unsigned-model', type: 'RELEASE_UNSIGNED', resourceType: 'MODEL' },
  { id: 'dev-signed-patch', type: 'DEV_SIGNED', resourceType: 'PATCH', provenance: true, sbom: 'CycloneDX' },
  { id: 'dev-signed-model', type: 'DEV_SIGNED', resourceType: 'MODEL' },
  { id: 'dev-unsigned-patch', type: 'DEV_UNSIGNED', resourceType: 'PATCH' },
  { id: 'dev-unsigned-model', type: 'DEV_UNSIGNED', resourceType: 'MODEL' },
  { id: 'dev-signed-patch-legacy-key', type: 'DEV_SIGNED', resourceType: 'PATCH', legacyKey: true },
  { id: 'release-signed-patch-text', type: 'RELEASE_SIGNED', resourceType: 'PATCH', note: TEXT_NOTE },
  { id: 'release-signed-patch-empty-note', type: 'RELEASE_SIGNED', resourceType: 'PATCH', note: '' },
  { id: 'release-signed-patch-16-criteria', type: 'RELEASE_SIGNED', resourceType: 'PATCH', criteria: 16 },
  { id: 'release-signed-patch-empty-payload', type: 'RELEASE_SIGNED', resourceType: 'PATCH', payloadSize: 0 },
];

const verdictOf = (b: BaseSpec) =>
  b.type === 'RELEASE_SIGNED'
    ? acceptedByBoth
    : b.type === 'RELEASE_UNSIGNED'
      ? refusedBy('Signature (trusted key)')
      : b.type === 'DEV_SIGNED'
        ? developmentOnly('Device policy')
        : developmentOnly('Signature (trusted key)');

const describe = (b: BaseSpec): string => {
  const what = `A ${b.type} ${b.resourceType.toLowerCase()} package as the portal generates it`;
  const extra = b.legacyKey
    ? ', signed with the release key as every development package was before the two keys: a development device (which holds the release key) accepts it, a device in the field refuses it by its type'
    : b.note === ''
      ? ', with an empty note (<note></note>)'
      : b.note
        ? ', whose note holds escapes, line breaks, a carriage return, non-ASCII text, control characters and a lone surrogate (§4.1, §5)'
        : b.criteria
          ? `, with ${b.criteria} entries in each criteria list (the largest header, 695 bytes)`
          : b.payloadSize === 0
            ? ', with a 0-byte payload (<payload …></payload>)'
            : '';
  const why =
    b.type === 'RELEASE_UNSIGNED'
      ? ': every device refuses an unsigned release package'
      : b.type.startsWith('DEV')
        ? ': a device in the field refuses every development package; a development device accepts it'
        : '';
  return `${what}${extra}${why}.`;
};

export const REAL_VECTORS: VectorDef[] = [
  ...BASES.map(
    (b): VectorDef => ({
      id: b.id,
      category: 'real',
      description: describe(b),
      ...verdictOf(b),
      files: async () => ({ package: { base: b.id } }),
    }),
  ),
  // the signed packages with their provenance statements (and SBOMs), as the portal stores and serves them
  ...BASES.filter(
    (b) => b.type.endsWith('_SIGNED') && (b.sbom || b.id.endsWith('-plain') || b.legacyKey),
  ).flatMap((b): VectorDef[] => {
    const verdict = b.type === 'DEV_SIGNED' ? developmentOnly('Device policy') : acceptedByBoth;
    const statement: VectorDef = {
      id: `${b.id}+statement`,
      category: 'real',
      description: `${describe(b).slice(0, -1)}, with its provenance statement${b.sbom ? ' (the SBOM file not given: a note, not a failure)' : ` (provenance and SBOM null: "none" is stated)`}.`,
      ...verdict,
      files: async () => ({ package: { base: b.id }, statement: { base: b.id } }),
    };
    if (!b.sbom) return [statement];
    return [
      statement,
      {
        id: `${b.id}+statement+sbom`,
        category: 'real',
        description: `${describe(b).slice(0, -1)}, with its provenance statement and its ${b.sbom} SBOM file.`,
        ...verdict,
        files: async () => ({ package: { base: b.id }, statement: { base: b.id }, sbom: b.sbom! }),
      },
    ];
  }),
];
