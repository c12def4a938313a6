import { describe, expect, it } from 'vitest';
import { BadRequestError } from './errors';
import { SBOM_MAX_BYTES, SBOM_TOP_COMPONENTS } from './model/provenance';
import { PROVENANCE_ERR } from './provenance-texts';
import { checkSbom, sbomFileNameOk } from './sbom';

const cdx = (extra: Record<string, unknown> = {}) => ({
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  components: [{ name: 'a', version: '1', purl: 'pkg:generic/a@1' }],
  ...extra,
});

const refusal = (content: unknown): string => {
  try {
    checkSbom(content);
  } catch (e) {
    expect(e).toBeInstanceOf(BadRequestError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('checkSbom', () => {
  it('keeps the text of a string as it is, and writes an object as JSON without spaces', () => {
    const text = JSON.stringify(cdx(), null, 2);
    expect(checkSbom(text).text).toBe(text);
    expect(checkSbom(cdx()).text).toBe(JSON.stringify(cdx()));
  });

  it('summarises CycloneDX: the subject, nested components counted, the first ten top-level listed', () => {
    const components = Array.from({ length: 12 }, (_, i) => ({
      name: `c${i}`,
      ...(i === 0 ? { components: [{ name: 'inner', components: [{ name: 'deeper' }] }] } : {}),
    }));
    const s = checkSbom(cdx({ components, metadata: { component: { name: 'fw', version: '2' } } }));
    expect(s).toMatchObject({ format: 'CycloneDX', specVersion: '1.6', componentCount: 14 });
    expect(s.topComponents).toHaveLength(SBOM_TOP_COMPONENTS);
    expect(s.topComponents[0]).toEqual({ name: 'c0' });
    expect(s.subject).toEqual({ name: 'fw', version: '2' });
  });

  it('accepts CycloneDX 1.2 to 1.6 and an empty component list', () => {
    for (const v of ['1.2', '1.3', '1.4', '1.5', '1.6'])
      expect(checkSbom(cdx({ specVersion: v, components: [] })).componentCount).toBe(0);
  });

  it('summarises SPDX: the described package is the subject, purls from external references', () => {
    const s = checkSbom({
      spdxVersion: 'SPDX-2.2',
      documentDescribes: ['SPDXRef-root'],
      packages: [
        { SPDXID: 'SPDXRef-a', name: 'a', versionInfo: '1' },
        { SPDXID: 'SPDXRef-root', name: 'fw' },
        {
          SPDXID: 'SPDXRef-b',
          name: 'b',
          externalRefs: [
            { referenceType: 'cpe23Type', referenceLocator: 'cpe:x' },
            { referenceType: 'purl', referenceLocator: 'pkg:generic/b' },
          ],
        },
      ],
    });
    expect(s).toMatchObject({
      format: 'SPDX',
      specVersion: 'SPDX-2.2',
      componentCount: 2,
      subject: { name: 'fw' },
    });
    expect(s.topComponents).toEqual([
      { name: 'a', version: '1' },
      { name: 'b', purl: 'pkg:generic/b' },
    ]);
  });

  it('refuses what is not a CycloneDX or SPDX JSON document, naming the field', () => {
    expect(refusal('{')).toBe(PROVENANCE_ERR.sbomNotJson);
    expect(refusal('"text"')).toBe(PROVENANCE_ERR.sbomNotObject);
    expect(refusal(null)).toBe(PROVENANCE_ERR.sbomNotObject);
    expect(refusal(42)).toBe(PROVENANCE_ERR.sbomNotObject);
    expect(refusal({ components: [] })).toBe(PROVENANCE_ERR.sbomUnknownFormat);
    expect(refusal(cdx({ bomFormat: 'cyclonedx' }))).toBe(PROVENANCE_ERR.bomFormat);
    expect(refusal(cdx({ specVersion: '1.7' }))).toBe(PROVENANCE_ERR.cycloneDxVersion);
    expect(refusal(cdx({ specVersion: 1.5 }))).toBe(PROVENANCE_ERR.cycloneDxVersion);
    expect(refusal(cdx({ components: {} }))).toBe(PROVENANCE_ERR.listMissing('components'));
    expect(refusal(cdx({ components: [{ name: 'a' }, { name: ' ' }] }))).toBe(
      PROVENANCE_ERR.componentName('components', 1),
    );
    expect(refusal(cdx({ components: ['a'] }))).toBe(PROVENANCE_ERR.componentName('components', 0));
    expect(refusal({ spdxVersion: 'SPDX-3.0', packages: [] })).toBe(PROVENANCE_ERR.spdxVersion);
    expect(refusal({ spdxVersion: 'SPDX-2.3', packages: [{ SPDXID: 'x' }] })).toBe(
      PROVENANCE_ERR.componentName('packages', 0),
    );
  });

  it('refuses more than SBOM_MAX_BYTES, as text or as an object', () => {
    const big = cdx({ note: 'x'.repeat(SBOM_MAX_BYTES) });
    expect(refusal(big)).toBe(PROVENANCE_ERR.sbomTooBig);
    expect(refusal(JSON.stringify(big))).toBe(PROVENANCE_ERR.sbomTooBig);
  });
});

describe('sbomFileNameOk', () => {
  it('takes a plain .json file name only', () => {
    for (const ok of ['bom.json', 'fw.cdx.json', 'fw.spdx.JSON']) expect(sbomFileNameOk(ok)).toBe(true);
    for (const bad of [
      'bom.xml',
      '.json',
      ' bom.json',
      '../bom.json',
      'a\\b.json',
      42,
      `${'a'.repeat(251)}.json`,
    ])
      expect(sbomFileNameOk(bad)).toBe(false);
  });
});
