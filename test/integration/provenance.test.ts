import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localBucket } from '../../infra/local/local-aws';
import type { Package } from '../../shared/api/contracts/packages';
import { SBOM_MAX_BYTES, sbomKeyOf } from '../../shared/api/contracts/provenance';
import type { Resource } from '../../shared/api/contracts/resources';
import { PROVENANCE_ERR } from '../../shared/domain/provenance-texts';
import { api, baseUrl, jsonText, uniq } from '../support/api';
import { type DirectUser, directUsers } from '../support/direct-users';
import { createPackage, seededUser, uploadPatch } from '../support/fixtures';
import { dynamoAt, s3At, scanAll, tableOf } from '../support/store';

/**
 * "Provenance and SBOM, pinned like the payload" (intake and reading side, decisions 275–278),
 * over HTTP against the local stack: the uploader (or a token of theirs with resources:upload) attaches a
 * resource's build provenance and SBOM once; bad SBOMs are refused naming the field and store nothing; a
 * package created afterwards pins both; its readers download the exact SBOM bytes.
 */

type Err = { errorMessage?: string };
const EXAMPLES = join(process.cwd(), 'docs/examples');
const ddb = () => dynamoAt(inject('dynamoEndpoint'));
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

const PROVENANCE = {
  repository: 'https://git.example.com/pumps/pump-controller',
  commit: '9f2c1e7b4a5d6c8e0f1a2b3c4d5e6f708192a3b4',
  buildId: '812',
  buildUrl: 'https://ci.example.com/pumps/pump-controller/builds/812',
  builder: 'GitLab CI runner fw-build-03',
};
const cyclone = (components: unknown = [{ name: 'mbedtls', version: '3.5.1' }], extra = {}) => ({
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  metadata: { component: { name: 'pump-controller', version: '4.2.0' } },
  components,
  ...extra,
});

let uploader: DirectUser;
let stranger: DirectUser;
let reviewer: DirectUser;
let waiting: DirectUser;
let admin: string;
const made: string[] = [];

beforeAll(async () => {
  const accounts = [
    ...(await directUsers(2, 'DESIGN_ENGINEER_DEV', 'Provenance Engineer')),
    ...(await directUsers(1, 'TECHNICAL_LEADER', 'Provenance Reviewer')),
    ...(await directUsers(1, 'TECHNICAL_LEADER', 'Provenance Waiting', { granted: false })),
  ];
  made.push(...accounts.map((u) => u.id));
  [uploader, stranger, reviewer, waiting] = accounts as [DirectUser, DirectUser, DirectUser, DirectUser];
  admin = (await seededUser('admin')).token;
}, 120_000);

afterAll(async () => {
  const del = await api('/admin/users', { method: 'DELETE', token: admin, body: made });
  expect(del.status, JSON.stringify(del.body)).toBe(200);
});

const attach = (id: string, token: string, body: unknown) =>
  api<{ resource: string } & Err>(`/resources/${id}/provenance`, { method: 'PUT', token, body });

async function tokenWith(scopes: string[], name = uniq('ci')) {
  const r = await api<{ token: string } & Err>('/access-tokens', {
    method: 'POST',
    token: uploader.token,
    body: { name, expiresInDays: 7, scopes },
  });
  if (r.status !== 201) throw new Error(`token: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token;
}

/** The audit events of a resource, straight from the audit table. */
async function resourceEvents(id: string) {
  const all = await scanAll(ddb(), tableOf('audit'));
  return all.filter((e) => e.subject === `RES#${id}`) as { action: string; actorName: string }[];
}

async function storedRecord(id: string) {
  const r = await ddb().send(new GetCommand({ TableName: tableOf('resources'), Key: { pk: `RES#${id}` } }));
  return r.Item ?? {};
}

async function storedSbom(id: string): Promise<Uint8Array | null> {
  try {
    const o = await s3At(inject('s3Endpoint')).send(
      new GetObjectCommand({ Bucket: localBucket('resources'), Key: sbomKeyOf(id) }),
    );
    return (await o.Body?.transformToByteArray()) ?? null;
  } catch {
    return null;
  }
}

/** GET /packages/{id}/sbom as a download: the raw bytes, not parsed. */
async function download(packageId: string, bearer: string) {
  const res = await fetch(`${baseUrl()}/dev/packages/${packageId}/sbom`, {
    headers: { Authorization: `Bearer ${bearer}` },
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('attaching provenance and an SBOM', () => {
  it('the uploader attaches both with a session; the package made afterwards pins them; readers download the same bytes', async () => {
    const resource = await uploadPatch(uploader.token, 'dev');
    const text = await readFile(join(EXAMPLES, 'sbom.cdx.json'), 'utf8');
    const r = await attach(resource.id, uploader.token, {
      provenance: PROVENANCE,
      sbom: { fileName: 'pump-controller.cdx.json', content: text },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const shown = jsonText<Resource>(r.body.resource);
    expect(shown.provenance).toMatchObject({
      ...PROVENANCE,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(shown.sbom).toEqual({
      format: 'CycloneDX',
      specVersion: '1.5',
      componentCount: 4,
      topComponents: [
        { name: 'freertos-kernel', version: '10.6.2', purl: 'pkg:github/FreeRTOS/FreeRTOS-Kernel@V10.6.2' },
        { name: 'mbedtls', version: '3.5.1', purl: 'pkg:github/Mbed-TLS/mbedtls@v3.5.1' },
        { name: 'cmsis-core', version: '5.9.0' },
        { name: 'tflite-micro', version: '2024.05', purl: 'pkg:github/tensorflow/tflite-micro' },
      ],
      subject: { name: 'pump-controller', version: '4.2.0' },
      fileName: 'pump-controller.cdx.json',
      sizeBytes: Buffer.byteLength(text),
      sha256: sha256(text),
    });
    // the file as sent, byte for byte, at the contract's key
    expect(Buffer.from((await storedSbom(resource.id)) ?? []).toString('utf8')).toBe(text);

    // the resource lists show it
    const list = await api<{ resources: string }>('/resources/patch/dev', { token: reviewer.token });
    const listed = jsonText<Resource[]>(list.body.resources).find((x) => x.id === resource.id);
    expect(listed?.sbom?.sha256).toBe(sha256(text));
    expect(listed?.provenance?.commit).toBe(PROVENANCE.commit);

    // pinned on the package created afterwards
    const pkg = await createPackage(uploader.token, resource.id, 'DEV_UNSIGNED');
    expect(pkg.resourceFile?.sbom).toEqual(shown.sbom);
    expect(pkg.resourceFile?.provenance).toEqual(shown.provenance);
    const details = await api<{ package: string }>(`/packages/${pkg.id}/details`, { token: reviewer.token });
    expect(jsonText<Package>(details.body.package).resourceFile?.sbom?.sha256).toBe(sha256(text));

    for (const who of [reviewer.token, uploader.token, admin]) {
      const d = await download(pkg.id, who);
      expect(d.status).toBe(200);
      expect(sha256(d.bytes)).toBe(pkg.resourceFile?.sbom?.sha256);
      expect(d.headers.get('content-disposition')).toContain('pump-controller.cdx.json');
    }
    // an account whose role is not granted reads no package, nor its SBOM
    expect((await download(pkg.id, waiting.token)).status).toBe(403);
    expect((await download('no-such-package', reviewer.token)).status).toBe(404);

    // the trail says who attached what
    const events = await resourceEvents(resource.id);
    for (const action of ['RESOURCE_PROVENANCE_ATTACHED', 'RESOURCE_SBOM_ATTACHED'])
      expect(events.find((e) => e.action === action)?.actorName).toBe('Provenance Engineer');
  });

  it('a token with resources:upload attaches; the trail names the token; a token without it is refused', async () => {
    const resource = await uploadPatch(uploader.token, 'dev');
    const drafts = await tokenWith(['packages:draft']);
    const refused = await attach(resource.id, drafts, { provenance: PROVENANCE });
    expect(refused.status).toBe(403);
    expect(Object.keys(await storedRecord(resource.id))).not.toContain('provenance');

    const tokenName = uniq('pump CI');
    const uploads = await tokenWith(['resources:upload'], tokenName);
    const ok = await attach(resource.id, uploads, {
      provenance: PROVENANCE,
      sbom: { fileName: 'bom.json', content: cyclone() },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const record = await storedRecord(resource.id);
    expect(record.provenance).toMatchObject(PROVENANCE);
    // an object given as JSON is stored as JSON without spaces, and hashed as stored
    const bytes = (await storedSbom(resource.id)) ?? new Uint8Array();
    expect(Buffer.from(bytes).toString('utf8')).toBe(JSON.stringify(cyclone()));
    expect((record.sbom as { sha256: string }).sha256).toBe(sha256(bytes));

    // with a drafting token, the package pins it and its SBOM is read with the same token
    const pkg = await createPackage(drafts, resource.id, 'DEV_UNSIGNED');
    expect(pkg.resourceFile?.sbom?.sha256).toBe(sha256(bytes));
    expect((await download(pkg.id, drafts)).status).toBe(200);
    // uploading does not read packages: the upload-only token is refused the download
    expect((await download(pkg.id, uploads)).status).toBe(403);
    const events = await resourceEvents(resource.id);
    expect(events.find((e) => e.action === 'RESOURCE_SBOM_ATTACHED')?.actorName).toBe(
      `Provenance Engineer (access token '${tokenName}')`,
    );
  });

  it('a stranger (another engineer) is refused and nothing changes', async () => {
    const resource = await uploadPatch(uploader.token, 'dev');
    const r = await attach(resource.id, stranger.token, {
      provenance: PROVENANCE,
      sbom: { fileName: 'bom.json', content: cyclone() },
    });
    expect(r.status).toBe(403);
    expect(r.body.errorMessage).toBe(PROVENANCE_ERR.notUploader);
    expect(await storedSbom(resource.id)).toBeNull();
    expect(Object.keys(await storedRecord(resource.id))).not.toContain('sbom');
    // a reviewer's role does not upload at all
    expect((await attach(resource.id, reviewer.token, { provenance: PROVENANCE })).status).toBe(403);
    expect((await attach('no-such-resource', uploader.token, { provenance: PROVENANCE })).status).toBe(404);
  });

  it('is set once: a second provenance or SBOM is refused with 409 and the first stays', async () => {
    const resource = await uploadPatch(uploader.token, 'dev');
    expect((await attach(resource.id, uploader.token, { provenance: PROVENANCE })).status).toBe(200);
    const again = await attach(resource.id, uploader.token, {
      provenance: { ...PROVENANCE, commit: 'abcdef1' },
    });
    expect(again.status).toBe(409);
    expect(again.body.errorMessage).toBe(PROVENANCE_ERR.provenanceAttached);
    // the SBOM is still free, and is then set once too
    const first = cyclone();
    expect(
      (await attach(resource.id, uploader.token, { sbom: { fileName: 'bom.json', content: first } })).status,
    ).toBe(200);
    const second = await attach(resource.id, uploader.token, {
      sbom: { fileName: 'bom.json', content: cyclone([{ name: 'other' }]) },
    });
    expect(second.status).toBe(409);
    expect(second.body.errorMessage).toBe(PROVENANCE_ERR.sbomAttached);
    expect(Buffer.from((await storedSbom(resource.id)) ?? []).toString('utf8')).toBe(JSON.stringify(first));
    expect((await storedRecord(resource.id)).provenance).toMatchObject({ commit: PROVENANCE.commit });
  });

  it('refuses bad SBOMs and bad provenance with 400 naming the field, storing nothing', async () => {
    const resource = await uploadPatch(uploader.token, 'dev');
    const big = cyclone([{ name: 'x', description: 'y'.repeat(SBOM_MAX_BYTES) }]);
    const cases: [unknown, string][] = [
      [{ sbom: { fileName: 'bom.json', content: '{ not json' } }, PROVENANCE_ERR.sbomNotJson],
      [{ sbom: { fileName: 'bom.json', content: [1, 2] } }, PROVENANCE_ERR.sbomNotObject],
      [{ sbom: { fileName: 'bom.json', content: { hello: 'world' } } }, PROVENANCE_ERR.sbomUnknownFormat],
      [{ sbom: { fileName: 'bom.json', content: cyclone([], { bomFormat: 'CycloneDx' }) } }, 'bomFormat'],
      [{ sbom: { fileName: 'bom.json', content: cyclone([], { specVersion: '1.1' }) } }, 'specVersion'],
      [
        { sbom: { fileName: 'bom.json', content: { spdxVersion: 'SPDX-2.1', packages: [{ name: 'a' }] } } },
        'spdxVersion',
      ],
      [{ sbom: { fileName: 'bom.json', content: { spdxVersion: 'SPDX-2.3' } } }, 'packages'],
      [{ sbom: { fileName: 'bom.json', content: cyclone(undefined, { components: 'none' }) } }, 'components'],
      [{ sbom: { fileName: 'bom.json', content: cyclone([{ version: '1' }]) } }, 'components[0].name'],
      [{ sbom: { fileName: 'bom.json', content: big } }, PROVENANCE_ERR.sbomTooBig],
      [{ sbom: { fileName: 'bom.xml', content: cyclone() } }, 'sbom.fileName'],
      [{ provenance: { ...PROVENANCE, commit: 'not-hex' } }, 'commit'],
      [{ provenance: { ...PROVENANCE, buildUrl: 'http://ci.example.com/1' } }, 'buildUrl'],
      [{ provenance: { ...PROVENANCE, builder: undefined } }, 'builder'],
      [{ provenance: { ...PROVENANCE, extra: 1 } }, 'extra'],
      [{}, PROVENANCE_ERR.nothingToAttach],
    ];
    for (const [body, field] of cases) {
      const r = await attach(resource.id, uploader.token, body);
      expect(r.status, field).toBe(400);
      expect(r.body.errorMessage, field).toContain(field);
    }
    expect(await storedSbom(resource.id)).toBeNull();
    const record = await storedRecord(resource.id);
    expect(Object.keys(record)).not.toContain('sbom');
    expect(Object.keys(record)).not.toContain('provenance');
  });

  it('accepts SPDX 2.3: the described package is the subject, the others the components', async () => {
    const resource = await uploadPatch(uploader.token, 'dev');
    const spdx = {
      spdxVersion: 'SPDX-2.3',
      SPDXID: 'SPDXRef-DOCUMENT',
      documentDescribes: ['SPDXRef-fw'],
      packages: [
        { SPDXID: 'SPDXRef-fw', name: 'pump-controller', versionInfo: '4.2.0' },
        {
          SPDXID: 'SPDXRef-1',
          name: 'zlib',
          versionInfo: '1.3.1',
          externalRefs: [
            {
              referenceCategory: 'PACKAGE-MANAGER',
              referenceType: 'purl',
              referenceLocator: 'pkg:generic/zlib@1.3.1',
            },
          ],
        },
      ],
    };
    const r = await attach(resource.id, uploader.token, {
      sbom: { fileName: 'fw.spdx.json', content: spdx },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(jsonText<Resource>(r.body.resource).sbom).toMatchObject({
      format: 'SPDX',
      specVersion: 'SPDX-2.3',
      componentCount: 1,
      topComponents: [{ name: 'zlib', version: '1.3.1', purl: 'pkg:generic/zlib@1.3.1' }],
      subject: { name: 'pump-controller', version: '4.2.0' },
    });
  });

  it('a package made from a resource without an SBOM has none to download (404, clear message)', async () => {
    const resource = await uploadPatch(uploader.token, 'dev');
    const pkg = await createPackage(uploader.token, resource.id, 'DEV_UNSIGNED');
    expect(pkg.resourceFile?.sbom).toBeUndefined();
    const r = await api<Err>(`/packages/${pkg.id}/sbom`, { token: reviewer.token });
    expect(r.status).toBe(404);
    expect(r.body.errorMessage).toBe(PROVENANCE_ERR.noSbom);
    // attaching later does not change the package made before: its pin is what it was created with
    expect(
      (await attach(resource.id, uploader.token, { sbom: { fileName: 'b.json', content: cyclone() } }))
        .status,
    ).toBe(200);
    expect((await api<Err>(`/packages/${pkg.id}/sbom`, { token: reviewer.token })).status).toBe(404);
  });
});

describe('the pipeline CLI with --provenance and --sbom', () => {
  const cli = (token: string, args: string[]) =>
    promisify(execFile)(
      process.execPath,
      [
        join(process.cwd(), 'node_modules/tsx/dist/cli.mjs'),
        'scripts/pipeline.ts',
        '--url',
        baseUrl(),
        ...args,
      ],
      { env: { ...process.env, FRP_TOKEN: token }, maxBuffer: 1 << 20 },
    );
  const step = (file: string, resourceName: string) => [
    '--file',
    file,
    '--resource-name',
    resourceName,
    '--stage',
    'dev',
    '--package-name',
    uniq('cli-prov'),
    '--package-type',
    'DEV_UNSIGNED',
    '--note',
    'CI build 814',
  ];

  it('attaches both after the upload, before the draft: the draft pins them, the SBOM byte for byte', async () => {
    const token = await tokenWith(['resources:upload', 'packages:draft']);
    const file = join(tmpdir(), `${uniq('fw')}.bin`);
    await writeFile(file, Buffer.alloc(64 * 1024, 0x3c));
    const sbomFile = join(EXAMPLES, 'sbom.cdx.json');
    const { stdout, stderr } = await cli(token, [
      ...step(file, uniq('fw')),
      '--provenance',
      join(EXAMPLES, 'provenance.json'),
      '--build-id',
      '814',
      '--build-url',
      'https://ci.example.com/pumps/pump-controller/builds/814',
      '--sbom',
      sbomFile,
    ]);
    expect(stderr).toContain(
      'provenance (commit 9f2c1e7b4a5d6c8e0f1a2b3c4d5e6f708192a3b4) and SBOM sbom.cdx.json attached',
    );
    const id = decodeURIComponent(stdout.trim().split('\n').at(-1)?.split('/').at(-1) ?? '');
    const details = await api<{ package: string }>(`/packages/${id}/details`, { token: reviewer.token });
    const pkg = jsonText<Package>(details.body.package);
    expect(pkg.resourceFile?.provenance).toMatchObject({
      ...PROVENANCE,
      buildId: '814',
      buildUrl: 'https://ci.example.com/pumps/pump-controller/builds/814',
    });
    const text = await readFile(sbomFile);
    expect(pkg.resourceFile?.sbom).toMatchObject({
      fileName: 'sbom.cdx.json',
      sha256: sha256(text),
      componentCount: 4,
    });
    const d = await download(pkg.id, reviewer.token);
    expect(Buffer.from(d.bytes).equals(text)).toBe(true);
  }, 120_000);

  it('refuses an incomplete provenance before uploading anything (exit 1, the missing flags named)', async () => {
    const token = await tokenWith(['resources:upload', 'packages:draft']);
    const name = uniq('fw');
    const file = join(tmpdir(), `${name}.bin`);
    await writeFile(file, Buffer.alloc(1024, 1));
    await expect(cli(token, [...step(file, name), '--commit', 'abcdef1'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        'build provenance needs --repository, --build-id, --build-url, --builder',
      ),
    });
    const list = await api<{ resources: string }>('/resources/patch/dev', { token: reviewer.token });
    expect(jsonText<Resource[]>(list.body.resources).some((r) => r.name === name)).toBe(false);
  }, 60_000);
});
