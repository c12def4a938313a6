import { describe, expect, it } from 'vitest';
import { packageWorld, SIG } from './package-test-kit';

async function generated() {
  const w = packageWorld();
  const t = w.team();
  const admin = w.user('ADMIN', 'Ada Admin');
  const p = await w.draft(t.initiator, 'DEV_UNSIGNED', 'To delete');
  const approvers = [t.test, t.lead, t.reliability, t.release];
  await w.service.notify(t.initiator, p.id, w.choice(approvers));
  for (const u of approvers) await w.service.approve(u, p.id, SIG);
  await w.runJobs();
  return { w, t, admin, p };
}

describe('admin deletes packages', () => {
  it('deletes a package in any status with its tasks and file, audited; the name is free again', async () => {
    const { w, t, admin, p } = await generated();
    const waiting = await w.draft(t.initiator, 'DEV_UNSIGNED', 'Waiting');
    await w.service.notify(t.initiator, waiting.id, w.choice([t.test, t.lead, t.reliability, t.release]));
    expect(w.artefacts.stored.size).toBe(1);
    await w.service.deletePackages(admin, [p.id, waiting.id, p.id]);
    expect(await w.service.listAll()).toEqual([]);
    expect(w.packages.openTasks()).toEqual([]);
    expect(w.artefacts.stored.size).toBe(0);
    const last = (await w.audit.history(`PKG#${p.id}`)).events.at(-1);
    expect([last?.action, last?.actorId, last?.meaning]).toEqual([
      'PACKAGE_DELETED',
      admin.id,
      'deletes the package and its generated files',
    ]);
    const again = await w.draft(t.initiator, 'DEV_UNSIGNED', 'To delete');
    expect(again.status).toBe('DRAFT');
  });

  it('refuses unknown ids and deletes nothing', async () => {
    const { w, admin, p } = await generated();
    await expect(w.service.deletePackages(admin, [p.id, 'nope'])).rejects.toMatchObject({
      statusCode: 404,
      message: 'No package with id nope',
    });
    expect((await w.packages.get(p.id))?.status).toBe('APPROVED');
  });
});

describe('download and history', () => {
  it('downloads a generated package under a safe file name', async () => {
    const { w, p } = await generated();
    const d = await w.service.download(p.id);
    expect(d.fileName).toBe('To_delete.xml');
    expect(d.base64).toBeTruthy();
  });

  it('refuses a download before generation', async () => {
    const w = packageWorld();
    const p = await w.draft(w.user('DESIGN_ENGINEER_DEV'), 'DEV_UNSIGNED');
    await expect(w.service.download(p.id)).rejects.toMatchObject({ statusCode: 409 });
    await expect(w.service.history('nope')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('returns the events with an intact chain', async () => {
    const { w, p } = await generated();
    const h = await w.service.history(p.id);
    expect(h.brokenAtSeq).toBeNull();
    expect(h.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
