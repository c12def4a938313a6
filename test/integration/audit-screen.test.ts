import { createHash } from 'node:crypto';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChainedEvent } from '../../shared/domain/audit-event';
import type { ChainState } from '../../shared/domain/audit-search';
import { api, jsonText, localDynamo, localTable, login, SEEDED, uniq } from '../support/api';
import { decideRoles, type Registered, registerConfirmed } from '../support/identity';
import { pdfPages } from '../support/pdf-text';

/** The audit trail screen's API (decisions 346–348), over HTTP against the local stack. */

interface Page {
  events: string;
  nextCursor: string | null;
  examined: number;
  chains: ChainState[];
}
interface Exported {
  fileName: string;
  contentType: string;
  base64: string;
  events: number;
  digest: string;
}

const PASSWORD = 'Audit-Screen-Pass-1';
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

let admin: string;
let dev: string;
let newcomer: Registered;

async function page(query: Record<string, string>, token = admin) {
  const r = await api<Page>(`/admin/audit?${new URLSearchParams(query)}`, { token });
  if (r.status !== 200) throw new Error(`audit page: ${r.status} ${JSON.stringify(r.body)}`);
  return { ...r.body, rows: jsonText<ChainedEvent[]>(r.body.events) };
}

/** Every event of the filter, following the cursor page by page. */
async function allPages(query: Record<string, string>, limit: number) {
  const rows: ChainedEvent[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const p = await page({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
    rows.push(...p.rows);
    cursor = p.nextCursor;
    pages += 1;
  } while (cursor && pages < 100);
  return { rows, pages };
}

beforeAll(async () => {
  admin = await login(SEEDED.admin);
  dev = await login(SEEDED.designDev);
  // a newcomer's registration, confirmation and two-admin grant: events by three actors on USER#<id>
  newcomer = await registerConfirmed({
    name: 'Audra Auditee',
    email: `${uniq('audit')}@example.com`,
    password: PASSWORD,
    userRole: 'RELIABILITY_ENGINEER',
  });
  await decideRoles([newcomer.id]);
}, 120_000);

describe('who may read the audit trail', () => {
  it('refuses a non-admin with 403 and no one signed in with 401, for the page and the export', async () => {
    const read = await api('/admin/audit', { token: dev });
    expect(read.status).toBe(403);
    expect(read.body.errorMessage).toEqual(expect.any(String));
    const exported = await api('/admin/audit/export', {
      method: 'POST',
      token: dev,
      body: { format: 'CSV' },
    });
    expect(exported.status).toBe(403);
    expect((await api('/admin/audit', { token: null })).status).toBe(401);
  });
});

describe('the audit trail page', () => {
  it('filters by subject and by actor, newest first, with the subject’s chain intact', async () => {
    const subject = `USER#${newcomer.id}`;
    const bySubject = await page({ subject, limit: '100' });
    expect(bySubject.rows.length).toBeGreaterThanOrEqual(3);
    expect(bySubject.rows.every((e) => e.subject === subject)).toBe(true);
    const seqs = bySubject.rows.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    const chain = bySubject.chains.find((c) => c.subject === subject);
    expect(chain).toMatchObject({ intact: true, brokenAtSeq: null, lastSeq: seqs[0] });
    expect(chain?.headHash).toBe(bySubject.rows[0]?.hash);

    const byActor = await page({ actor: newcomer.id, limit: '100' });
    expect(byActor.rows.length).toBeGreaterThan(0);
    expect(byActor.rows.every((e) => e.actorId === newcomer.id)).toBe(true);
    const ats = byActor.rows.map((e) => e.at);
    expect(ats).toEqual([...ats].sort().reverse());
    // the grant's events were recorded by the admins, not by the newcomer
    const grants = bySubject.rows.filter((e) => e.actorId !== newcomer.id);
    expect(grants.length).toBeGreaterThan(0);
    expect(byActor.rows.some((e) => grants.some((g) => g.hash === e.hash))).toBe(false);
  });

  it('filters by date: today holds the events, tomorrow and yesterday none; a range backwards is 400', async () => {
    const subject = `USER#${newcomer.id}`;
    const all = (await page({ subject, limit: '100' })).rows;
    expect((await page({ subject, from: today(), to: today(), limit: '100' })).rows).toHaveLength(all.length);
    expect((await page({ subject, from: dayOffset(1), limit: '100' })).rows).toHaveLength(0);
    expect((await page({ actor: newcomer.id, to: dayOffset(-1), limit: '100' })).rows).toHaveLength(0);
    expect((await page({ actor: newcomer.id, from: today(), limit: '100' })).rows.length).toBeGreaterThan(0);
    const backwards = await api(`/admin/audit?from=${today()}&to=${dayOffset(-1)}`, { token: admin });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errorMessage).toMatch(/'from' date is after the 'to' date/);
    const badDate = await api('/admin/audit?from=2026-13-45', { token: admin });
    expect(badDate.status).toBe(400);
  });

  it('pages honestly: one row a page gives the same events in the same order as one page of all', async () => {
    const subject = `USER#${newcomer.id}`;
    const whole = (await page({ subject, limit: '100' })).rows.map((e) => e.hash);
    const paged = await allPages({ subject }, 1);
    expect(paged.rows.map((e) => e.hash)).toEqual(whole);
    expect(paged.pages).toBeGreaterThanOrEqual(whole.length);
    // across every subject (the byKind index), two rows a page, the first pages agree with one larger page
    const first = (await page({ limit: '6' })).rows.map((e) => e.hash);
    const p1 = await page({ limit: '3' });
    const p2 = await page({ limit: '3', cursor: p1.nextCursor ?? '' });
    expect([...p1.rows, ...p2.rows].map((e) => e.hash)).toEqual(first);
  });

  it('filters by action beside an actor (a FilterExpression) and says how many events it examined', async () => {
    const subject = `USER#${newcomer.id}`;
    const actions = (await page({ subject, limit: '100' })).rows.map((e) => e.action);
    const action = actions[actions.length - 1] as string;
    const r = await page({ subject, action, limit: '100' });
    expect(r.rows.length).toBe(actions.filter((a) => a === action).length);
    expect(r.rows.every((e) => e.action === action)).toBe(true);
    expect(r.examined).toBeGreaterThanOrEqual(r.rows.length);
    const kind = await page({ subjectKind: 'USER', limit: '10' });
    expect(kind.rows.every((e) => e.subject.startsWith('USER#'))).toBe(true);
  });

  it('refuses a bad limit, a forged cursor and an unknown parameter with 400', async () => {
    for (const q of ['limit=0', 'limit=101', 'cursor=not-a-cursor', 'subjectKind=CAT', 'colour=red']) {
      const r = await api(`/admin/audit?${q}`, { token: admin });
      expect(r.status, q).toBe(400);
      expect(r.body.errorMessage, q).toEqual(expect.any(String));
    }
  });

  it('shows a chain broken at the event whose stored content was changed', async () => {
    const victim = await registerConfirmed({
      name: 'Tamper Target',
      email: `${uniq('tamper')}@example.com`,
      password: PASSWORD,
      userRole: 'TECHNICAL_LEADER',
    });
    const subject = `USER#${victim.id}`;
    const ddb = await localDynamo();
    const stored = await ddb.send(
      new QueryCommand({
        TableName: localTable('audit'),
        KeyConditionExpression: 'pk = :s AND seq > :z',
        ExpressionAttributeValues: { ':s': subject, ':z': 0 },
      }),
    );
    const first = stored.Items?.[0] as { seq: number } | undefined;
    expect(first?.seq).toBe(1);
    const setMeaning = (m: string) =>
      ddb.send(
        new UpdateCommand({
          TableName: localTable('audit'),
          Key: { pk: subject, seq: 1 },
          UpdateExpression: 'SET meaning = :m',
          ExpressionAttributeValues: { ':m': m },
        }),
      );
    const original = (first as unknown as { meaning: string }).meaning;
    await setMeaning('rewritten afterwards');
    try {
      const r = await page({ subject });
      expect(r.chains).toEqual([expect.objectContaining({ subject, intact: false, brokenAtSeq: 1 })]);
    } finally {
      // put it back: the run's closing audit:verify checks every chain of the stack
      await setMeaning(original);
    }
    expect((await page({ subject })).chains).toEqual([expect.objectContaining({ subject, intact: true })]);
  });
});

describe('exports of the filtered view', () => {
  it('exports CSV with every filtered event, its chain state and a digest of the hashes, and records the export', async () => {
    const subject = `USER#${newcomer.id}`;
    const view = (await page({ subject, limit: '100' })).rows;
    const r = await api<Exported>('/admin/audit/export', {
      method: 'POST',
      token: admin,
      body: { format: 'CSV', subject },
    });
    expect(r.status).toBe(200);
    expect(r.body.contentType).toBe('text/csv; charset=utf-8');
    expect(r.body.fileName).toMatch(/^audit-trail-.+\.csv$/);
    const lines = Buffer.from(r.body.base64, 'base64').toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'at,subject,seq,actorId,actorName,actorRole,action,meaning,details,chain,prevHash,hash',
    );
    expect(lines).toHaveLength(view.length + 1);
    view.forEach((e, i) => {
      const line = lines[i + 1] as string;
      expect(line.startsWith(`${e.at},${subject},${e.seq},${e.actorId},`)).toBe(true);
      expect(line.endsWith(`,chain intact,${e.prevHash},${e.hash}`)).toBe(true);
      expect(line).toContain(e.action);
    });
    const digest = createHash('sha256')
      .update(view.map((e) => `${e.hash}\n`).join(''))
      .digest('hex');
    expect(r.body).toMatchObject({ events: view.length, digest });

    const me = jsonText<{ id: string }>(
      (await api<{ user: string }>('/user/auth', { method: 'POST', token: admin })).body.user,
    );
    const recorded = await page({ actor: me.id, action: 'AUDIT_EXPORTED', limit: '1' });
    expect(recorded.rows[0]).toMatchObject({
      subject: `USER#${me.id}`,
      actorRole: 'ADMIN',
      details: { format: 'CSV', filter: { subject }, events: view.length, digest, fileName: r.body.fileName },
    });
  });

  it('exports a PDF whose every page carries the title, filter, digest, exporter and page x of y, with each event', async () => {
    const subject = `USER#${newcomer.id}`;
    const view = (await page({ subject, limit: '100' })).rows;
    const r = await api<Exported>('/admin/audit/export', {
      method: 'POST',
      token: admin,
      body: { format: 'PDF', subject, from: '2020-01-01' },
    });
    expect(r.status).toBe(200);
    expect(r.body.contentType).toBe('application/pdf');
    const pages = await pdfPages(new Uint8Array(Buffer.from(r.body.base64, 'base64')));
    expect(pages.length).toBeGreaterThan(0);
    pages.forEach((text, i) => {
      expect(text).toContain('Audit trail - Firmware Release Portal');
      expect(text).toContain(`Filter: subject ${subject}, from 2020-01-01`);
      expect(text).toContain(`Export digest (SHA-256): ${r.body.digest}`);
      expect(text).toMatch(/Generated \d{4}-\d{2}-\d{2}T[\d:.]+Z \(UTC\) by .+ \(ADMIN, /);
      expect(text).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    const all = pages.join('\n');
    expect(all).toContain(subject);
    for (const e of view) {
      expect(all).toContain(`event ${e.seq}, chain intact`);
      expect(all).toContain(e.action);
      expect(all).toContain(e.at);
    }
    expect(all).toContain(`${subject}: chain intact; ${view[0]?.seq} events; head hash ${view[0]?.hash}`);
  });

  it('refuses an unknown format with 400 and records nothing', async () => {
    const me = jsonText<{ id: string }>(
      (await api<{ user: string }>('/user/auth', { method: 'POST', token: admin })).body.user,
    );
    const before = (await page({ actor: me.id, action: 'AUDIT_EXPORTED', limit: '100' })).rows.length;
    const r = await api('/admin/audit/export', { method: 'POST', token: admin, body: { format: 'XLS' } });
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toMatch(/format must be 'CSV' or 'PDF'/);
    expect((await page({ actor: me.id, action: 'AUDIT_EXPORTED', limit: '100' })).rows).toHaveLength(before);
  });
});
