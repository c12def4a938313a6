import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { api, jsonText } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { dynamoAt, tableOf } from '../support/store';

/**
 * How a package item is stored (docs/decisions/051): the header as one JSON string, so list Queries do
 * not (un)marshal hundreds of nested attributes; items stored before, with the header as a map, still
 * read the same.
 */
const ddb = () => dynamoAt(inject('dynamoEndpoint'));
const key = (id: string) => ({ pk: `PKG#${id}`, sk: 'PKG' });

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

async function storedItem(id: string): Promise<Record<string, unknown>> {
  const r = await ddb().send(
    new GetCommand({ TableName: tableOf('packages'), Key: key(id), ConsistentRead: true }),
  );
  return r.Item as Record<string, unknown>;
}

const headerOf = async (id: string) => {
  const r = await api<{ header: string }>(`/packages/${id}/header`, { token: u.lead.token });
  expect(r.status).toBe(200);
  return jsonText<{ fields: unknown[] }>(r.body.header);
};

describe('package items', () => {
  it('keep the header as one JSON string, and answer it as the header of the template', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const item = await storedItem(pkg.id);
    expect(typeof item.header).toBe('string');
    expect(JSON.parse(item.header as string)).toEqual(await headerOf(pkg.id));
  });

  it('stored before, with the header as a map, read and list the same, and are rewritten as a string on the next change', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const header = await headerOf(pkg.id);
    const item = await storedItem(pkg.id);
    await ddb().send(
      new PutCommand({
        TableName: tableOf('packages'),
        Item: { ...item, header: JSON.parse(item.header as string) },
      }),
    );
    expect(typeof (await storedItem(pkg.id)).header).toBe('object');

    expect(await headerOf(pkg.id)).toEqual(header);
    const list = await api<{ packages: string }>('/dev/packages', { token: u.lead.token });
    expect(jsonText<Package[]>(list.body.packages).find((p) => p.id === pkg.id)).toMatchObject({
      id: pkg.id,
      name: pkg.name,
    });
    const dccUuid = await createDcc(u.designDev.token);
    const attached = await api(`/packages/${pkg.id}/dcc/${dccUuid}`, {
      method: 'POST',
      token: u.designDev.token,
    });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    expect(typeof (await storedItem(pkg.id)).header).toBe('string');
    expect(await headerOf(pkg.id)).toEqual(header);
  });
});
