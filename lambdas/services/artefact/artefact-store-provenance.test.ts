import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sbomKeyOf } from '../../../shared/api/contracts/provenance';
import type { Stage } from '../../../shared/api/contracts/resources';
import { newPackageHeader } from '../../../shared/domain/header/header-rules';
import { MemoryBlobStore } from '../../adapters/memory/blob-store';
import type { PackageRecord } from '../../ports/package-repository';
import type { ResourceRecord } from '../../ports/resource-repository';
import { BlobArtefactStore } from './artefact-store';
import { exampleSigner } from './package-format.example';
import {
  EXAMPLE_PROVENANCE,
  EXAMPLE_SBOM,
  EXAMPLE_SBOM_SUMMARY,
  manifestBytesOf,
} from './provenance-statement.example';
import { verifyStatement } from './provenance-statement-verify';
import { samplePayload, testSigner } from './xml-package.fixtures';
import { verifyXmlPackage } from './xml-verifier';

/**
 * Generation with a pinned SBOM and provenance (decisions 279–281), on storage in memory: the pin is
 * checked before a byte is written, a signed package gets its statement beside the XML, an unsigned one
 * none, and removing the artefact removes both.
 */

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const PAYLOAD = samplePayload(4096);
const person = {
  id: 'u-rel',
  name: 'Rel Engineer',
  email: 'rel@example.com',
  role: 'SW_FW_RELEASE_ENGINEER',
};

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
  const store = new BlobArtefactStore(
    blobs,
    { of: keyOf, signsFor: o.signsFor ?? [stage] },
    {
      resourcesBucket: () => 'resources',
      artefactsBucket: () => 'artefacts',
      inlineLimitBytes: 1024 * 1024,
      downloadUrlTtlSeconds: 60,
    },
  );
  const type = `${stage}_${o.signed ? 'SIGNED' : 'UNSIGNED'}` as const;
  const resource = {
    id: 'r1',
    name: 'pump-4.2',
    fileName: 'pump-4.2.bin',
    objectKey: 'resources/r1/pump-4.2.bin',
    sizeBytes: PAYLOAD.length,
    sha256: sha(PAYLOAD),
    resourceType: 'PATCH',
    resourceStage: stage,
  } as unknown as ResourceRecord;
  const pkg = {
    id: 'p1',
    name: 'Pump 4.2',
    type,
    signed: o.signed,
    resourceId: 'r1',
    resourceStage: stage,
    resourceName: 'pump-4.2',
    resourceType: 'PATCH',
    note: '',
    initiator: { id: 'u-init', name: 'Ada', email: 'ada@example.com', userRole: 'DESIGN_ENGINEER_DEV' },
    createdAt: '2026-03-01T09:00:00.000Z',
    header: newPackageHeader({ packageType: type, resourceSizeBytes: PAYLOAD.length }),
    resourceFile: {
      fileName: 'pump-4.2.bin',
      sizeBytes: PAYLOAD.length,
      sha256: sha(PAYLOAD),
      ...(o.pinned === false ? {} : { sbom: EXAMPLE_SBOM_SUMMARY, provenance: EXAMPLE_PROVENANCE }),
    },
  } as unknown as PackageRecord;
  const ready = (async () => {
    await blobs.put('resources', resource.objectKey, PAYLOAD);
    const sbom = o.sbom === undefined ? EXAMPLE_SBOM : o.sbom;
    if (sbom) await blobs.put('resources', sbomKeyOf('r1'), sbom);
  })();
  const generate = async () => {
    await ready;
    return store.generate({
      pkg,
      resource,
      dcc: { id: 'd1', deviceId: 'VENT-9', telemetryType: 'TelA', deviceLimit: 1, messageLimit: 1 },
      approvals: [{ ...person, id: 'u-tl', decidedAt: '2026-03-01T12:00:00.000Z' }],
      ...(o.signed ? { signedBy: person } : {}),
      at: new Date('2026-03-02T10:00:00.000Z'),
    });
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
