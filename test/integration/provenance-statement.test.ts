import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { localBucket } from '../../infra/local/local-aws';
import { runVerify } from '../../scripts/verify';
import type { Package } from '../../shared/api/contracts/packages';
import { type ProvenanceRecord, provenanceText, sbomKeyOf } from '../../shared/api/contracts/provenance';
import type { DsseEnvelope } from '../../shared/api/contracts/provenance-statement';
import { api, baseUrl } from '../support/api';
import { createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import {
  approveAllButLast,
  downloadXml,
  lastApprover,
  lastSteps,
  portalKey,
  prepareAndNotify,
  waitForStatus,
} from '../support/package-flow';
import { s3At } from '../support/store';

/**
 * Decisions 279–280: the SBOM and build provenance are pinned between review and signature and
 * bound to the signed package by a signed provenance statement beside it. Both are attached through the
 * intake route (`PUT /resources/{id}/provenance`) and pinned on the package at creation; the swap test
 * overwrites the SBOM file where the intake stored it (`sbomKeyOf(resourceId)` in the resources bucket).
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

const RESOURCES = localBucket('resources');
const ARTEFACTS = localBucket('artefacts');
const SBOM = readFileSync(join(__dirname, '../fixtures/sbom-cyclonedx.json'));
const sha = (b: string | Uint8Array) => createHash('sha256').update(b).digest('hex');

const build = {
  repository: 'https://git.example.com/fw/pump-controller',
  commit: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  buildId: '20261127.3',
  buildUrl: 'https://ci.example.com/fw/pump-controller/builds/20261127.3',
  builder: 'ci.example.com runner 2',
};
const provenance: ProvenanceRecord = { ...build, sha256: sha(provenanceText(build)) };

async function putSbom(resourceId: string, body: Uint8Array | string) {
  await s3At(inject('s3Endpoint')).send(
    new PutObjectCommand({ Bucket: RESOURCES, Key: sbomKeyOf(resourceId), Body: body }),
  );
}

/**
 * A released patch with an SBOM and provenance attached through the intake route (as a pipeline does), and
 * its RELEASE_SIGNED package, which pins both at creation.
 */
async function pinnedPackage(): Promise<{ pkg: Package; resourceId: string }> {
  const resource = await uploadPatch(u.designDev.token, 'release');
  const attached = await api(`/resources/${resource.id}/provenance`, {
    method: 'PUT',
    token: u.designDev.token,
    body: {
      provenance: build,
      sbom: { fileName: 'pump-controller.cdx.json', content: SBOM.toString('utf8') },
    },
  });
  if (attached.status !== 200) throw new Error(`attach: ${attached.status} ${JSON.stringify(attached.body)}`);
  const pkg = await createPackage(u.designDev.token, resource.id, 'RELEASE_SIGNED');
  expect(pkg.resourceFile).toMatchObject({ provenance, sbom: { sha256: sha(SBOM), sizeBytes: SBOM.length } });
  return { pkg, resourceId: resource.id };
}

async function artefactsOf(id: string) {
  const left = await s3At(inject('s3Endpoint')).send(
    new ListObjectsV2Command({ Bucket: ARTEFACTS, Prefix: `packages/${id}/` }),
  );
  return (left.Contents ?? []).map((c) => c.Key!);
}

const statementOf = (id: string, token = u.lead.token) =>
  api<DsseEnvelope & { errorMessage?: string }>(`/packages/${id}/provenance-statement`, { token });

async function verify(args: string[]) {
  let out = '';
  const code = await runVerify(args, (s) => {
    out += s;
  });
  return { code, out };
}

describe('the signed provenance statement (decision 279)', () => {
  it('is written beside a signed package, downloadable, and binds its manifest, payload, provenance and SBOM', async () => {
    const { pkg } = await pinnedPackage();
    expect((await statementOf(pkg.id)).body.errorMessage).toBe(
      'This package has not been generated yet, so it has no provenance statement',
    );
    await prepareAndNotify(u, pkg);
    await approveAllButLast(u, pkg);
    await lastSteps(u, pkg);

    // stored beside the XML
    const keys = await artefactsOf(pkg.id);
    expect(keys).toHaveLength(2);
    expect(keys.find((k) => k.endsWith('.provenance-statement.json'))).toBe(
      keys.find((k) => k.endsWith('.xml'))!.replace(/\.xml$/, '.provenance-statement.json'),
    );

    // readers of the package read it: the lead, an admin, the initiator
    for (const token of [u.lead.token, u.admin.token, u.designDev.token]) {
      const r = await statementOf(pkg.id, token);
      expect(r.status).toBe(200);
      expect(r.body.payloadType).toBe('application/vnd.in-toto+json');
    }
    const r = await statementOf(pkg.id);
    const statement = JSON.parse(Buffer.from(r.body.payload, 'base64').toString('utf8'));
    expect(statement.predicate).toMatchObject({
      package: { id: pkg.id, name: pkg.name, type: 'RELEASE_SIGNED', stage: 'RELEASE' },
      provenance,
      sbom: {
        format: 'CycloneDX',
        specVersion: '1.5',
        componentCount: 3,
        sizeBytes: SBOM.length,
        sha256: sha(SBOM),
      },
    });

    // offline: the package, the statement and the SBOM verify with the portal key
    const { file, dir } = await downloadXml(pkg.id, u.lead.token);
    const key = await portalKey(dir);
    // the file as stored, byte for byte: one compact line and exactly one LF (docs/package-format.md §11.1)
    const raw = await fetch(`${baseUrl()}/dev/packages/${pkg.id}/provenance-statement`, {
      headers: { Authorization: `Bearer ${u.lead.token}` },
    });
    const text = await raw.text();
    expect(raw.headers.get('content-type')).toBe('application/json');
    expect(text.endsWith('}]}\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(2);
    const stored = await s3At(inject('s3Endpoint')).send(
      new GetObjectCommand({
        Bucket: ARTEFACTS,
        Key: keys.find((k) => k.endsWith('.provenance-statement.json'))!,
      }),
    );
    expect(text).toBe(await stored.Body!.transformToString('utf8'));
    const statementFile = join(dir, 'statement.json');
    writeFileSync(statementFile, text);
    const sbomFile = join(dir, 'sbom.json');
    writeFileSync(sbomFile, SBOM);
    const ok = await verify([file, '--key', key, '--statement', statementFile, '--sbom', sbomFile]);
    expect(ok.out).toContain('PASS  Statement signature (trusted key)');
    expect(ok.out).toContain('PASS  Statement binds this package');
    expect(ok.out).toContain(`PASS  Statement provenance: ${build.repository} at ${build.commit}`);
    expect(ok.out).toContain('PASS  SBOM: ');
    expect(ok.out).toMatch(/VERDICT: VALID\n$/);
    expect(ok.code).toBe(0);

    // a different SBOM file is named as the one that differs
    writeFileSync(sbomFile, SBOM.toString().replace('3.6.2', '3.6.3'));
    const swapped = await verify([file, '--key', key, '--statement', statementFile, '--sbom', sbomFile]);
    expect(swapped.out).toContain(`FAIL  SBOM: ${sbomFile} is not the SBOM the statement pins`);
    expect(swapped.code).toBe(1);
  }, 180_000);

  it('is written for a signed package without provenance (null says none); an unsigned one has none (404)', async () => {
    const plain = await uploadPatch(u.designDev.token, 'release');
    const signed = await createPackage(u.designDev.token, plain.id, 'RELEASE_SIGNED');
    await prepareAndNotify(u, signed);
    await approveAllButLast(u, signed);
    await lastSteps(u, signed);
    const r = await statementOf(signed.id);
    expect(r.status).toBe(200);
    const statement = JSON.parse(Buffer.from(r.body.payload, 'base64').toString('utf8'));
    expect([statement.predicate.provenance, statement.predicate.sbom]).toEqual([null, null]);

    const dev = await uploadPatch(u.designDev.token, 'dev');
    const unsigned = await createPackage(u.designDev.token, dev.id, 'DEV_UNSIGNED');
    await prepareAndNotify(u, unsigned);
    await approveAllButLast(u, unsigned);
    await lastSteps(u, unsigned);
    const none = await statementOf(unsigned.id);
    expect([none.status, none.body.errorMessage]).toEqual([
      404,
      'This package is not signed: only signed packages carry a provenance statement',
    ]);
    expect((await artefactsOf(unsigned.id)).filter((k) => k.endsWith('.json'))).toEqual([]);
    expect((await statementOf('no-such-package')).status).toBe(404);
  }, 180_000);

  it('refuses an SBOM swapped after approval: generation fails with the reason and nothing is signed', async () => {
    const { pkg, resourceId } = await pinnedPackage();
    await prepareAndNotify(u, pkg);
    await approveAllButLast(u, pkg);
    const last = await api(`/packages/${pkg.id}/approve`, {
      method: 'POST',
      token: lastApprover(u, pkg.type).token,
    });
    expect(last.body.outcome).toBe('WAITING_FOR_SIGNING');

    // after approval, someone with write access to the bucket replaces the SBOM
    const swapped = SBOM.toString().replace('"mbedtls"', '"mbedtlz"');
    await putSbom(resourceId, swapped);
    const signing = await api(`/packages/${pkg.id}/generate-signed`, {
      method: 'POST',
      token: u.release.token,
    });
    expect([signing.status, signing.body.outcome]).toEqual([202, 'GENERATING']);
    const failed = await waitForStatus(pkg, u.lead.token, 'AWAITING_SIGNATURE', {
      until: (p) => p.generation?.state === 'FAILED',
    });
    expect(failed.generation?.reason).toBe(
      `The SBOM is not the one reviewed: it is ${Buffer.byteLength(swapped)} bytes with SHA-256 ${sha(swapped)}, not ${SBOM.length} bytes with SHA-256 ${sha(SBOM)} as recorded at upload (after 3 attempts)`,
    );
    // nothing written, nothing signed, nothing to download
    expect(await artefactsOf(pkg.id)).toEqual([]);
    expect((await api(`/packages/${pkg.id}`, { token: u.lead.token })).status).toBe(409);
    expect((await statementOf(pkg.id)).status).toBe(404);

    // the reviewed SBOM back: the signer's retry signs, with the statement
    await putSbom(resourceId, SBOM);
    const retried = await api(`/packages/${pkg.id}/retry-generation`, {
      method: 'POST',
      token: u.release.token,
    });
    expect(retried.status, JSON.stringify(retried.body)).toBe(202);
    await waitForStatus(pkg, u.lead.token, 'SIGNED');
    expect((await statementOf(pkg.id)).status).toBe(200);
  }, 180_000);
});
