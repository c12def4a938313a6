import { describe, expect, it } from 'vitest';
import { packageWorld } from '../testing/package-test-kit';

const DCC = { deviceId: 'pump-7', telemetryType: 'TelA' as const, messageLimit: 16, deviceLimit: 20 };

describe('DCC service', () => {
  it('creates a DCC of the caller, audited, and lists it', async () => {
    const w = packageWorld();
    const u = w.user('DESIGN_ENGINEER_TEST', 'Tess');
    const dcc = await w.service.createDcc(u, DCC);
    expect(dcc).toMatchObject({ ...DCC, createdBy: { id: u.id, name: 'Tess' } });
    expect((await w.service.listDcc()).map((d) => d.id)).toEqual([dcc.id]);
    const [e] = (await w.audit.history(`DCC#${dcc.id}`)).events;
    expect([e?.action, e?.meaning, e?.details]).toEqual(['DCC_CREATED', 'creates DCC pump-7', DCC]);
  });

  it('deletes DCCs no package uses; refuses unknown ids and DCCs in use, deleting nothing', async () => {
    const w = packageWorld();
    const u = w.user('DESIGN_ENGINEER_DEV');
    const admin = w.user('ADMIN');
    const p = await w.draft(u, 'DEV_UNSIGNED', 'Uses it');
    const free = await w.service.createDcc(u, DCC);
    await expect(w.service.deleteDccs(admin, [free.id, 'nope'])).rejects.toMatchObject({
      statusCode: 404,
      message: 'No DCC with id nope',
    });
    await expect(w.service.deleteDccs(admin, [free.id, p.dccId])).rejects.toMatchObject({
      statusCode: 409,
      message: 'DCC is attached to packages Uses it: delete those packages first',
    });
    expect(await w.dccs.get(free.id)).not.toBeNull();
    await w.service.deleteDccs(admin, [free.id, free.id]);
    expect(await w.dccs.get(free.id)).toBeNull();
    const last = (await w.audit.history(`DCC#${free.id}`)).events.at(-1);
    expect([last?.action, last?.actorId]).toEqual(['DCC_DELETED', admin.id]);
  });
});
