import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { api, localDynamo, localTable, uniq } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { approveAllButLast, chosenApprovers, lastSteps } from '../support/package-flow';

/**
 * Decision 267: `npm run ops:backfill-approved-device` puts packages approved before the byApprovedDevice
 * index (decision 246) on it. An approved package item of the old shape (no approvedFor/approvedAt) is
 * not found by "changes since the last approved package" until the backfill ran; a second run changes
 * nothing; an interrupted run resumes from its progress file.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

const dataDir = () => inject('dataDir');
const progressFile = () => resolve(dataDir(), 'backfill-approved-device.progress.json');

async function backfill(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/backfill-approved-device.ts', '--local', '--data-dir', dataDir(), ...args],
      { cwd: resolve(import.meta.dirname, '..', '..') },
    );
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: `${err.stdout}${err.stderr}` };
  }
}

async function draft(dccId: string): Promise<Package> {
  const resource = await uploadPatch(u.designDev.token, 'dev');
  const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED', uniq('backfill'));
  const att = await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
  if (att.status !== 200) throw new Error(`dcc: ${att.status} ${JSON.stringify(att.body)}`);
  return pkg;
}

async function previousOf(id: string): Promise<string | null> {
  const r = await api<{ previousPackageId: string | null }>(`/packages/${id}/changes`, {
    token: u.lead.token,
  });
  expect(r.status).toBe(200);
  return r.body.previousPackageId;
}

describe('ops:backfill-approved-device (decision 267)', () => {
  it('indexes an approved package of the old shape, so the changes call finds it; idempotent and resumable', async () => {
    const ddb = await localDynamo();
    const dccId = await createDcc(u.designDev.token, uniq('device-backfill'));
    const old = await draft(dccId);
    const n = await api(`/packages/${old.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: chosenApprovers(u, old.type) },
    });
    expect(n.status).toBe(200);
    await approveAllButLast(u, old);
    await lastSteps(u, old);
    const key = { pk: `PKG#${old.id}`, sk: 'PKG' };
    const approvedItem = (await ddb.send(new GetCommand({ TableName: localTable('packages'), Key: key })))
      .Item!;
    expect(approvedItem.approvedFor).toMatch(/^PATCH#device-backfill-/);
    // the item as a package approved before decision 246 left it: no index keys
    await ddb.send(
      new UpdateCommand({
        TableName: localTable('packages'),
        Key: key,
        UpdateExpression: 'REMOVE approvedFor, approvedAt',
      }),
    );

    const next = await draft(dccId);
    expect(await previousOf(next.id)).toBeNull();

    // an interrupted run left its progress (here: from the start, after 0 items): the run resumes from it,
    // page by page
    writeFileSync(
      progressFile(),
      JSON.stringify({ table: localTable('packages'), scanned: 0, indexed: 0, skipped: 0 }),
    );
    const first = await backfill('--page-size', '2');
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain('resuming after 0 items');
    expect(first.out).toContain(
      `indexed ${old.id} (APPROVED) as ${approvedItem.approvedFor} at ${approvedItem.approvedAt}`,
    );
    expect(existsSync(progressFile())).toBe(false);
    const after = (await ddb.send(new GetCommand({ TableName: localTable('packages'), Key: key }))).Item!;
    expect([after.approvedFor, after.approvedAt, after.status]).toEqual([
      approvedItem.approvedFor,
      approvedItem.approvedAt,
      'APPROVED',
    ]);
    expect(await previousOf(next.id)).toBe(old.id);

    // a second run finds nothing to do
    const again = await backfill();
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain('0 approved packages indexed');

    // a progress file of another table is refused, nothing done
    writeFileSync(
      progressFile(),
      JSON.stringify({ table: 'other-table', scanned: 3, indexed: 0, skipped: 0 }),
    );
    const wrong = await backfill();
    expect(wrong.code).toBe(2);
    expect(wrong.out).toContain('is the progress of table other-table');
    const restarted = await backfill('--restart');
    expect(restarted.code, restarted.out).toBe(0);
    expect(existsSync(progressFile())).toBe(false);
  }, 240_000);
});
