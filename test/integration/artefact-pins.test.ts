import { createHash } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { localBucket } from '../../infra/local/local-aws';
import type { Package } from '../../shared/api/contracts/packages';
import { api, jsonText } from '../support/api';
import { createPackage, seededUsers, uploadPatch, uploadPatchPresigned } from '../support/fixtures';
import {
  approveAllButLast,
  approversFor,
  downloadXml,
  lastSteps,
  prepareAndNotify,
  seededDeliverer,
} from '../support/package-flow';
import { dynamoAt, s3At, tableOf } from '../support/store';

/**
 * Decision 302–303 on the local stack: someone with write access to the artefacts bucket writes another
 * package's files under a package's keys (directly in s3rver, as the attack would). The download, the
 * statement route and the last delivery vote refuse with 409 and the reason; restored, all three work
 * again; a package nobody touched downloads and serves its statement throughout.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

const ARTEFACTS = localBucket('artefacts');
const s3 = () => s3At(inject('s3Endpoint'));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const statementKeyOf = (xmlKey: string) => `${xmlKey.replace(/\.xml$/, '')}.provenance-statement.json`;

async function readObject(key: string): Promise<Buffer> {
  const r = await s3().send(new GetObjectCommand({ Bucket: ARTEFACTS, Key: key }));
  return Buffer.from(await r.Body!.transformToByteArray());
}
const writeObject = (key: string, body: Uint8Array) =>
  s3().send(new PutObjectCommand({ Bucket: ARTEFACTS, Key: key, Body: body }));

/** A RELEASE_SIGNED package through approval and signature: SIGNED, with its XML and statement stored. */
async function signedRelease(): Promise<Package> {
  const resource = await uploadPatch(u.designDev.token, 'release');
  const pkg = await createPackage(u.designDev.token, resource.id, 'RELEASE_SIGNED');
  await prepareAndNotify(u, pkg);
  await approveAllButLast(u, pkg);
  await lastSteps(u, pkg);
  return (await packageOf(pkg.id))!;
}

async function packageOf(id: string): Promise<Package> {
  const r = await api<{ package: string }>(`/packages/${id}/details`, { token: u.lead.token });
  if (r.status !== 200) throw new Error(`details: ${r.status} ${JSON.stringify(r.body)}`);
  return jsonText<Package>(r.body.package);
}

const download = (id: string) =>
  api<{ base64EncodedXMLPackage?: string; downloadUrl?: string; sha256: string; errorMessage?: string }>(
    `/packages/${id}`,
    { token: u.reliability.token },
  );
const statement = (id: string) =>
  api<{ payload?: string; errorMessage?: string }>(`/packages/${id}/provenance-statement`, {
    token: u.reliability.token,
  });
const historyOf = async (id: string) =>
  jsonText<{ action: string; details?: Record<string, unknown> }[]>(
    (await api<{ history: string }>(`/packages/${id}/history`, { token: u.admin.token })).body.history,
  );

describe('a stored package file swapped for another package’s (decision 302)', () => {
  it('is refused at download, by the statement route and at delivery completion; restored, B downloads, serves its statement and is delivered', async () => {
    const a = await signedRelease();
    const b = await signedRelease();
    const bKey = b.linkToS3!;
    const bXml = await readObject(bKey);
    const bStatement = await readObject(statementKeyOf(bKey));
    // the minute its generation began (the API shows the package, not that time): "2 Mar 2026, 10:00 UTC"
    const generatedOn = '\\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d{2}:\\d{2} UTC';

    // B is sent to delivery; every delivery approver but the last approves
    const deliverer = seededDeliverer(u);
    const voters = approversFor(u, b.type, 'delivery').filter((v) => v.id !== deliverer.id);
    const started = await api(`/delivery/packages/${b.id}/notify-approvers`, {
      method: 'POST',
      token: deliverer.token,
      body: { approvers: voters.map(({ role, id }) => ({ role, id })) },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    for (const v of voters.slice(0, -1)) {
      const r = await api(`/delivery/packages/${b.id}/approve`, { method: 'POST', token: v.token });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
    }
    const decider = voters.at(-1)!;

    // the attack: A's files (an older, validly signed release) written under B's keys
    const aXml = await readObject(a.linkToS3!);
    await writeObject(bKey, aXml);
    await writeObject(statementKeyOf(bKey), await readObject(statementKeyOf(a.linkToS3!)));

    const dl = await download(b.id);
    expect(dl.status).toBe(409);
    expect(dl.body.errorMessage).toMatch(
      new RegExp(
        `^The stored package file does not match the one generated on ${generatedOn} \\(it is ${aXml.length} bytes with SHA-256 ${sha(aXml).slice(0, 12)}…, not ${bXml.length} bytes with SHA-256 ${sha(bXml).slice(0, 12)}… as recorded\\); it was not served — tell an admin$`,
      ),
    );
    expect(dl.body.base64EncodedXMLPackage).toBeUndefined();
    const st = await statement(b.id);
    expect([st.status, st.body.payload]).toEqual([409, undefined]);
    expect(st.body.errorMessage).toMatch(
      /^The stored provenance statement does not match the one signed on .+ \(it is SHA-256 [0-9a-f]{12}…, not SHA-256 [0-9a-f]{12}… as recorded\); it was not served — tell an admin$/,
    );

    const last = await api<{ errorMessage?: string; outcome?: string }>(
      `/delivery/packages/${b.id}/approve`,
      {
        method: 'POST',
        token: decider.token,
      },
    );
    expect(last.status).toBe(409);
    expect(last.body.errorMessage).toMatch(
      new RegExp(`^The stored package file does not match the one generated on ${generatedOn} \\(it is `),
    );
    expect(last.body.errorMessage).toContain(
      'so the package was not delivered — tell an admin. Your approval was not recorded: once the file is restored, approve the delivery again to deliver it',
    );
    // nothing is delivered, nor the refused vote recorded (one commit per decision): B waits, in the
    // decider's list, with every other vote in
    const held = await packageOf(b.id);
    expect(held.status).toBe('DELIVERY_PENDING');
    expect(held.deliveryApprovers.filter((x) => !x.approved).map((x) => x.user.id)).toEqual([decider.id]);
    expect((await historyOf(b.id)).map((e) => e.action)).not.toContain('DELIVERED');
    const list = await api<{ packages: string }>('/deliver/packages/approval', { token: decider.token });
    expect(jsonText<Package[]>(list.body.packages).map((p) => p.id)).toContain(b.id);

    // A, untouched, downloads and serves its statement meanwhile
    const aDl = await download(a.id);
    expect([aDl.status, aDl.body.sha256]).toEqual([200, sha(aXml)]);
    expect((await statement(a.id)).status).toBe(200);

    // an admin restores B's files: download, statement and the retried last vote work again
    await writeObject(bKey, bXml);
    await writeObject(statementKeyOf(bKey), bStatement);
    const { file } = await downloadXml(b.id, u.reliability.token);
    expect(file).toMatch(/\.xml$/);
    const again = await download(b.id);
    expect(Buffer.from(again.body.base64EncodedXMLPackage!, 'base64')).toEqual(bXml);
    expect((await statement(b.id)).status).toBe(200);
    const retried = await api<{ outcome?: string }>(`/delivery/packages/${b.id}/approve`, {
      method: 'POST',
      token: decider.token,
    });
    expect([retried.status, retried.body.outcome]).toEqual([200, 'DELIVERED']);
    const delivered = (await historyOf(b.id)).filter((e) => e.action === 'DELIVERED');
    expect(delivered).toHaveLength(1);
    // the delivery names the file it delivered
    expect(delivered[0]?.details?.delivered).toMatchObject({
      key: bKey,
      sha256: sha(bXml),
      sizeBytes: bXml.length,
    });
  }, 300_000);

  it('refuses a large package before handing out its URL when its stored file was changed', async () => {
    const resource = await uploadPatchPresigned(u.designDev.token, 'dev', 5 * 1024 * 1024);
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    await prepareAndNotify(u, pkg);
    await approveAllButLast(u, pkg);
    await lastSteps(u, pkg);
    const ok = await download(pkg.id);
    expect([ok.status, typeof ok.body.downloadUrl]).toEqual([200, 'string']);
    const key = (await packageOf(pkg.id)).linkToS3!;
    const xml = await readObject(key);
    // one byte of the payload's base64 changed: same size, other SHA-256
    const changed = Buffer.from(xml);
    const at = changed.length - 4096;
    changed[at] = changed[at] === 0x41 ? 0x42 : 0x41;
    await writeObject(key, changed);
    const refused = await download(pkg.id);
    expect([refused.status, refused.body.downloadUrl]).toEqual([409, undefined]);
    expect(refused.body.errorMessage).toContain(
      `it is ${xml.length} bytes with SHA-256 ${sha(changed).slice(0, 12)}…, not ${xml.length} bytes with SHA-256 ${sha(xml).slice(0, 12)}… as recorded`,
    );
    await writeObject(key, xml);
    expect((await download(pkg.id)).status).toBe(200);
  }, 300_000);

  it('refuses a statement signed before statements were pinned when it names another package', async () => {
    const a = await signedRelease();
    const b = await signedRelease();
    // B as generated before decision 302: no statement SHA-256 on its record
    await dynamoAt(inject('dynamoEndpoint')).send(
      new UpdateCommand({
        TableName: tableOf('packages'),
        Key: { pk: `PKG#${b.id}`, sk: 'PKG' },
        UpdateExpression: 'REMOVE artefact.statementSha256',
      }),
    );
    expect((await statement(b.id)).status).toBe(200);
    const bStatement = await readObject(statementKeyOf(b.linkToS3!));
    await writeObject(statementKeyOf(b.linkToS3!), await readObject(statementKeyOf(a.linkToS3!)));
    const refused = await statement(b.id);
    expect(refused.status).toBe(409);
    expect(refused.body.errorMessage).toContain(`(it is the statement of another package (${a.id}))`);
    await writeObject(statementKeyOf(b.linkToS3!), bStatement);
    expect((await statement(b.id)).status).toBe(200);
  }, 300_000);
});
