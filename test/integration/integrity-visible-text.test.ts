import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../infra/local/local-aws';
import type { Package } from '../../shared/api/contracts/packages';
import { api, jsonText, mailboxUrl, mailMatching, mails, uniq } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { approversFor, chosenApprovers } from '../support/package-flow';
import { dynamoAt, s3At, storeSnapshot, tableOf } from '../support/store';

/**
 * Names (package, resource, DCC device id) and notes refuse control, bidirectional and zero-width
 * characters with a clear 400 that writes nothing; notes keep their line breaks; names are compared in
 * NFC, so two spellings of one name collide; and a mail subject never carries a raw line break, even from a
 * name stored before these rules.
 */
type Users = Awaited<ReturnType<typeof seededUsers>>;
let u: Users;
let resourceId: string;
beforeAll(async () => {
  u = await seededUsers();
  resourceId = (await uploadPatch(u.designDev.token, 'dev')).id;
});

const snapshot = () => storeSnapshot(dynamoAt(inject('dynamoEndpoint')), s3At(inject('s3Endpoint')));

const generate = (body: Record<string, unknown>) =>
  api<{ package: string; errorMessage?: string }>(`/resources/${resourceId}/generate-package`, {
    method: 'POST',
    token: u.designDev.token,
    body: { packageType: 'DEV_UNSIGNED', note: 'A note', ...body },
  });

const BAD: [string, string][] = [
  ['LF', '\n'],
  ['CR', '\r'],
  ['NUL', '\u0000'],
  ['DEL', '\u007f'],
  ['C1 NEL', '\u0085'],
  ['right-to-left override', '\u202e'],
  ['first-strong isolate', '\u2068'],
  ['left-to-right mark', '\u200e'],
  ['arabic letter mark', '\u061c'],
  ['zero-width space', '\u200b'],
  ['zero-width joiner', '\u200d'],
  ['word joiner', '\u2060'],
  ['byte order mark', '\ufeff'],
];

const code = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

describe('names and notes hold visible text only', () => {
  it.each(BAD)('a package name with a %s is refused with 400 and nothing is written', async (_, ch) => {
    const before = await snapshot();
    const r = await generate({ packageName: `pump-${ch}fw-${Date.now()}` });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.errorMessage).toBe(
      `Package name must not contain control, bidirectional or invisible characters; found ${code(ch)}`,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('a note keeps LF and CRLF line breaks (stored as LF) but refuses other controls and overrides', async () => {
    const ok = await generate({ packageName: uniq('note-lines'), note: 'Line one\r\nLine two\nLine three' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(jsonText<Package>(ok.body.package).note).toBe('Line one\nLine two\nLine three');

    for (const ch of ['\r', '\u0000', '\t', '\u202e', '\u200b']) {
      const r = await generate({ packageName: uniq('note-bad'), note: `Line one\n${ch}Line two` });
      expect(r.status, code(ch)).toBe(400);
      expect(r.body.errorMessage).toBe(
        `Note must not contain control, bidirectional or invisible characters (line breaks are allowed); found ${code(ch)}`,
      );
    }
  });

  it('two package names that differ only in Unicode normalisation collide with 409 already exists', async () => {
    const suffix = uniq('');
    const composed = `Caf\u00e9 pump${suffix}`;
    const decomposed = `Cafe\u0301 pump${suffix}`;
    const first = await generate({ packageName: decomposed });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // stored in the composed form
    expect(jsonText<Package>(first.body.package).name).toBe(composed);
    const second = await generate({ packageName: composed });
    expect(second.status, JSON.stringify(second.body)).toBe(409);
    expect(second.body.errorMessage).toBe(`Package with name '${composed}' already exists`);
  });

  it('a resource name with a zero-width space and a DCC device id with a line break are refused', async () => {
    const before = await snapshot();
    const form = new FormData();
    form.append('resourceFile', new Blob([new Uint8Array(64)]), 'fw.bin');
    const up = await api(`/resources/patch/dev?name=${encodeURIComponent('fw\u200bpatch')}`, {
      method: 'POST',
      token: u.designDev.token,
      body: form,
    });
    expect(up.status, JSON.stringify(up.body)).toBe(400);
    expect(up.body.errorMessage).toBe(
      'Resource name must not contain control, bidirectional or invisible characters; found U+200B',
    );

    const dcc = await api('/dcc', {
      method: 'POST',
      token: u.designDev.token,
      body: { deviceId: 'pump\r\nX-Injected: 1', telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
    });
    expect(dcc.status, JSON.stringify(dcc.body)).toBe(400);
    expect(dcc.body.errorMessage).toBe(
      'Device ID must not contain control, bidirectional or invisible characters; found U+000D',
    );
    expect(await snapshot()).toEqual(before);
  });

  it('a rejection reason with a bidirectional override is refused and the package stays pending', async () => {
    const pkg = await pendingPackage(uniq('reject-bidi'));
    const r = await api(`/packages/${pkg.id}/reject`, {
      method: 'POST',
      token: approversFor(u, pkg.type)[0]!.token,
      body: { 'rejection-reason': 'Looks fine \u202eon paper' },
    });
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toMatch(/^Rejection reason must not contain .* found U\+202E$/);
    const h = await api<{ history: string }>(`/packages/${pkg.id}/history`, { token: u.lead.token });
    expect(jsonText<{ action: string }[]>(h.body.history).map((e) => e.action)).not.toContain('REJECTED');
  });
});

async function pendingPackage(name: string): Promise<Package> {
  const pkg = await createPackage(u.designDev.token, resourceId, 'DEV_UNSIGNED', name);
  const dccId = await createDcc(u.designDev.token);
  expect(
    (await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
  ).toBe(200);
  const n = await api(`/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: chosenApprovers(u, pkg.type) },
  });
  expect(n.status, JSON.stringify(n.body)).toBe(200);
  return pkg;
}

describe('mail headers', () => {
  it('a package name stored before the rules, holding CRLF, reaches the mail subject as one line', async () => {
    const pkg = await pendingPackage(uniq('legacy-name'));
    const marker = uniq('evil');
    // an item written before names were checked (or by a path that missed the rule)
    await dynamoAt(inject('dynamoEndpoint')).send(
      new UpdateCommand({
        TableName: tableOf('packages'),
        Key: { pk: `PKG#${pkg.id}`, sk: 'PKG' },
        UpdateExpression: 'SET #n = :n',
        ExpressionAttributeNames: { '#n': 'name' },
        ExpressionAttributeValues: { ':n': `${pkg.name}\r\nBcc: ${marker}@example.org\r\n\u202e` },
      }),
    );
    const r = await api(`/packages/${pkg.id}/reject`, {
      method: 'POST',
      token: approversFor(u, pkg.type)[0]!.token,
      body: { 'rejection-reason': 'Header CRC region is wrong' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // workflow mail leaves through the outbox: wait for it
    await mailMatching(u.designDev.email, (m) => m.subject.startsWith(`Approval rejected: ${pkg.name}`));
    const sent = (await mails()).filter((m) => m.subject.startsWith(`Approval rejected: ${pkg.name}`));
    expect(sent.length).toBeGreaterThan(0);
    for (const m of sent) {
      expect(m.subject).not.toMatch(/[\r\n\u202e]/);
      expect(m.subject).toBe(`Approval rejected: ${pkg.name} Bcc: ${marker}@example.org`);
    }
    expect((await mails(marker)).length).toBe(0);
  });

  it('the SES adapter itself flattens any subject and refuses an address holding a line break', async () => {
    // the adapter as the handlers build it, against the stack's SES (the same endpoint variable)
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_SESV2: mailboxUrl().replace(/\/$/, ''),
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    });
    const { SesMailer } = await import('../../lambdas/adapters/ses/ses-mailer');
    const mailer = new SesMailer('firmware-portal@example.com');
    const to = `${uniq('adapter')}@example.com`;
    await mailer.send({
      to,
      subject: 'Package x\r\nBcc: someone@example.org\u202e\u0000',
      text: 'Line 1\nLine 2',
    });
    const got = await mails(to);
    expect(got.map((m) => m.subject)).toEqual(['Package x Bcc: someone@example.org']);
    expect(got[0]?.text).toContain('Line 1\nLine 2');
    await expect(
      mailer.send({ to: `${to}\r\nBcc: someone@example.org`, subject: 'Hello', text: 'x' }),
    ).rejects.toThrow(/control or invisible character/);
    expect(await mails('someone@example.org')).toEqual([]);
  });
});
