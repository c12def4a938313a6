import { describe, expect, it } from 'vitest';
import { sbomKeyOf } from '../../../shared/api/contracts/provenance';
import type { Stage } from '../../../shared/api/contracts/resources';
import { MemoryBlobStore } from '../../adapters/memory/blob-store';
import {
  generateSample,
  memoryArtefactStore,
  samplePackage,
  sha256Hex as sha,
  storedPayload,
} from '../../testing/artefact/artefact-store.fixtures';
import { exampleSigner } from '../../testing/artefact/package-format.example';
import {
  EXAMPLE_PROVENANCE,
  EXAMPLE_SBOM,
  EXAMPLE_SBOM_SUMMARY,
  manifestBytesOf,
} from '../../testing/artefact/provenance-statement.example';
import { testSigner } from '../../testing/artefact/xml-package.fixtures';
import { verifyStatement } from './provenance-statement-verify';
import { verifyXmlPackage } from './xml-verifier';

/**
 * Generation with a pinned SBOM and provenance (decisions 279–281), on storage in memory: the pin is
 * checked before a byte is written, a signed package gets its statement beside the XML, an unsigned one
 * none, and removing the artefact removes both.
 */

/** The test keys: the fixtures' key is the release key here, the RFC 6979 example key the development key. */
const keyOf = (stage: Stage) => (stage === 'RELEASE' ? testSigner() : exampleSigner());

function setup(o: {
  signed: boolean;
  pinned?: boolean;
  sbom?: Uint8Array | null;
  stage?: Stage;
  signsFor?: Stage[];
}) {
  const blobs = new MemoryBlobStore();
  const stage = o.stage ?? 'RELEASE';
  const store = memoryArtefactStore(blobs, undefined, { of: keyOf, signsFor: o.signsFor ?? [stage] });
  const pkg = samplePackage(
    'p1',
    `${stage}_${o.signed ? 'SIGNED' : 'UNSIGNED'}`,
    o.pinned === false ? {} : { sbom: EXAMPLE_SBOM_SUMMARY, provenance: EXAMPLE_PROVENANCE },
  );
  const ready = (async () => {
    await storedPayload(blobs);
    const sbom = o.sbom === undefined ? EXAMPLE_SBOM : o.sbom;
    if (sbom) await blobs.put('resources', sbomKeyOf('r1'), sbom);
  })();
  const generate = async () => {
    await ready;
    return generateSample(store, pkg, '2026-03-02T10:00:00.000Z');
  };
  const artefactKeys = () =>
    [...blobs.objects.keys()]
      .filter((k) => k.startsWith('artefacts/'))
      .map((k) => k.slice('artefacts/'.length));
  return { blobs, store, generate, artefactKeys };
}

describe('generation with a pinned SBOM and provenance', () => {
  it('stores the signed XML and, beside it, a statement that verifies against it', async () => {
    const t = setup({ signed: true });
    const ref = await t.generate();
    expect(ref.statementKey).toBe(ref.key.replace(/\.xml$/, '.provenance-statement.json'));
    expect(t.artefactKeys().sort()).toEqual([ref.key, ref.statementKey].sort());
    const envelope = await t.store.statement(ref);
    const xml = t.blobs.objects.get(`artefacts/${ref.key}`)!.bytes;
    const v = verifyStatement({
      envelopeText: envelope!,
      trustedKeyPems: [await testSigner().publicKeyPem()],
      manifest: JSON.parse(manifestBytesOf(xml).toString('utf8')),
      sbom: { name: 'sbom.json', bytes: EXAMPLE_SBOM },
    });
    expect(v.checks.filter((c) => !c.ok)).toEqual([]);
    await t.store.remove(ref);
    expect(t.artefactKeys()).toEqual([]);
  });

  it('refuses a swapped SBOM before anything is written', async () => {
    const swapped = Buffer.from(EXAMPLE_SBOM.toString().replace('2.15.0', '2.15.9'));
    const t = setup({ signed: true, sbom: swapped });
    await expect(t.generate()).rejects.toThrow(
      `The SBOM is not the one reviewed: it is ${swapped.length} bytes with SHA-256 ${sha(swapped)}, not ${EXAMPLE_SBOM.length} bytes with SHA-256 ${sha(EXAMPLE_SBOM)} as recorded at upload`,
    );
    expect(t.artefactKeys()).toEqual([]);
  });

  it('refuses a missing SBOM object', async () => {
    const t = setup({ signed: true, sbom: null });
    await expect(t.generate()).rejects.toThrow('The SBOM of resource pump-4.2 is missing from storage');
    expect(t.artefactKeys()).toEqual([]);
  });

  it('writes no statement for an unsigned package, and a null-provenance one for a signed package without pins', async () => {
    const unsigned = setup({ signed: false });
    const ref = await unsigned.generate();
    expect(ref.statementKey).toBeUndefined();
    expect(await unsigned.store.statement(ref)).toBeNull();
    expect(unsigned.artefactKeys()).toEqual([ref.key]);

    const plain = setup({ signed: true, pinned: false });
    const signed = await plain.generate();
    const env = await plain.store.statement(signed);
    const statement = JSON.parse(Buffer.from(JSON.parse(env!).payload, 'base64').toString('utf8'));
    expect([statement.predicate.provenance, statement.predicate.sbom]).toEqual([null, null]);
  });
});

describe('two keys: each stage signed with its own (decision 295)', () => {
  const verifyWith = async (xml: Uint8Array, key: Stage) =>
    verifyXmlPackage(
      (async function* () {
        yield xml;
      })(),
      { trustedKeyPems: [await keyOf(key).publicKeyPem()], devMode: true },
    );

  it('signs a DEV package and its statement with the development key, a RELEASE package with the release key', async () => {
    for (const stage of ['DEV', 'RELEASE'] as const) {
      const t = setup({ signed: true, stage });
      const ref = await t.generate();
      const xml = t.blobs.objects.get(`artefacts/${ref.key}`)!.bytes;
      const other = stage === 'DEV' ? 'RELEASE' : 'DEV';
      expect((await verifyWith(xml, stage)).valid, stage).toBe(true);
      expect((await verifyWith(xml, other)).valid, `${stage} with the ${other} key`).toBe(false);
      expect(Buffer.from(xml).toString()).toContain(`keyId="${keyOf(stage).keyId}"`);
      const envelope = JSON.parse((await t.store.statement(ref))!);
      expect(envelope.signatures[0].keyid).toBe(keyOf(stage).keyId);
    }
  });

  it('refuses to sign with a key the function does not hold, before anything is read or written', async () => {
    const devOnRelease = setup({ signed: true, stage: 'DEV', signsFor: ['RELEASE'] });
    await expect(devOnRelease.generate()).rejects.toThrow(
      'The DEV key is not held here: DEV packages are signed by their own generation worker (RELEASE)',
    );
    expect(devOnRelease.artefactKeys()).toEqual([]);
    const none = setup({ signed: true, stage: 'RELEASE', signsFor: [] });
    await expect(none.generate()).rejects.toThrow(/this function signs nothing/);
    // an unsigned package needs no key
    const unsigned = setup({ signed: false, stage: 'DEV', signsFor: [] });
    expect((await unsigned.generate()).signed).toBe(false);
  });

  it("serves each stage's public key, the release key by default", async () => {
    const t = setup({ signed: false, signsFor: [] });
    expect(await t.store.publicKeyPem()).toEqual({
      pem: await testSigner().publicKeyPem(),
      keyId: testSigner().keyId,
    });
    expect((await t.store.publicKeyPem('DEV')).keyId).toBe(exampleSigner().keyId);
    expect(exampleSigner().keyId).not.toBe(testSigner().keyId);
  });
});
