import type { AuditEvent } from '../ports/audit-log';
import type { Clock } from '../ports/clock';
import type { OutboxItem, RedriveStore } from '../ports/mail-outbox';
import type { MailOutboxWorker } from './mail-outbox-worker';

export interface MailRedriveDeps {
  store: RedriveStore;
  /** gives up stuck mails with a reason (FAILED, on the package, audited) */
  worker: Pick<MailOutboxWorker, 'giveUp'>;
  clock: Clock;
  /** a PENDING item older than this is stuck: the event source no longer holds its record */
  staleAfterMs: number;
}

export interface MailRedriveResult {
  /** pending mails given up first (named by a dead-letter record, or stuck past the record age) */
  givenUp: string[];
  /** failed mails sent again: old id → the new item's id */
  redriven: { from: string; to: string; mailTo: string; subject: string }[];
}

/** The id of a mail's n-th redrive (the first item's id, so redrives of redrives stay readable). */
export const redriveId = (rootId: string, n: number): string => `${rootId}~r${n}`;

/**
 * `npm run ops:redrive`, the mail part (decision 218): mails named by the stream's dead-letter records
 * and mails left PENDING past the stream record's age are given up (FAILED with the reason, visible on
 * the package and in its history); then every FAILED mail not redriven yet is queued again as a new
 * outbox item — its insert is a new stream record, so the worker sends it with fresh tries — and its
 * failure leaves the package. The trail records MAIL_REDRIVEN; a mail that fails again shows again.
 */
export async function redriveMails(
  d: MailRedriveDeps,
  deadLetterIds: readonly string[],
): Promise<MailRedriveResult> {
  const givenUp: string[] = [];
  for (const id of new Set(deadLetterIds))
    if (await d.worker.giveUp(id, 'The mail worker gave up on it (dead-letter queue)')) givenUp.push(id);

  const now = d.clock.now().getTime();
  for (const item of await d.store.unsettled()) {
    if (item.status !== 'PENDING') continue;
    const busyUntil = Math.max(
      item.leaseUntil ? Date.parse(item.leaseUntil) : 0,
      item.nextAttemptAt ? Date.parse(item.nextAttemptAt) : 0,
    );
    if (now - Date.parse(item.createdAt) < d.staleAfterMs || busyUntil > now) continue;
    if (await d.worker.giveUp(item.id, 'Left pending after the mail worker stopped handling it'))
      givenUp.push(item.id);
  }

  const redriven: MailRedriveResult['redriven'] = [];
  for (const item of await d.store.unsettled()) {
    if (item.status !== 'FAILED') continue;
    const root = item.redriveOf ?? item.id;
    const n = (item.redriveCount ?? 0) + 1;
    const at = d.clock.now();
    const fresh: OutboxItem = {
      id: redriveId(root, n),
      packageId: item.packageId,
      event: item.event,
      toUserId: item.toUserId,
      to: item.to,
      subject: item.subject,
      text: item.text,
      createdAt: at.toISOString(),
      status: 'PENDING',
      attempts: 0,
      redriveOf: root,
      redriveCount: n,
    };
    const event: AuditEvent = {
      subject: `PKG#${item.packageId}`,
      action: 'MAIL_REDRIVEN',
      meaning: `the mail "${item.subject}" to ${item.to}, given up before, is sent again`,
      actorId: 'system',
      actorName: 'Operator redrive',
      actorRole: 'SYSTEM',
      details: { to: item.to, subject: item.subject, event: item.event, from: item.id, redrive: fresh.id },
    };
    // the new item, the old one marked, the package's failure gone and the event: one transaction
    if (!(await d.store.redrive(item, fresh, at, { events: [event] }))) continue;
    redriven.push({ from: item.id, to: fresh.id, mailTo: item.to, subject: item.subject });
  }
  return { givenUp, redriven };
}
