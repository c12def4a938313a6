import { type ApproverEntry, type Package, rejectSchema, type UserRef } from '@shared/api/contracts/packages';
import {
  approvalTime,
  approvedForKey,
  type ComparedPackage,
  packageChanges,
} from '@shared/domain/package-changes';
import {
  APPROVAL_ROUND,
  DELIVERY_ROUND,
  isGenerated,
  isWaitingForSignature,
  nextStatus,
  type VotingRound,
} from '@shared/domain/package-lifecycle';
import { AUDIT_MEANING, PACKAGE_ERR } from '@shared/domain/package-texts';
import { MSG } from '@shared/messages';
import { HttpResponse, http } from 'msw';
import { db } from './db';
import { fail, json, on } from './mock-http';
import { LARGE_PACKAGE_IDS } from './package-fixtures';
import { ensure, find, headerOf, historyOf, now, packageFor, pkgBody, record, save } from './package-store';
import { signedBody } from './signature';

/**
 * Mock backend of the decisions (issue 6): the two voting rounds of the lifecycle table (approval and
 * delivery) as one pair of handlers each, signing, the three rejections, history and download.
 */

/** What the mock records and answers per round; the statuses come from the lifecycle table. */
const ROUND_MOCK = {
  approval: {
    approveRoute: 'approvePackage',
    rejectRoute: 'rejectPackage',
    approved: 'APPROVED',
    rejected: 'REJECTED',
    approveMeaning: AUDIT_MEANING.approve,
    rejectMeaning: AUDIT_MEANING.reject,
  },
  delivery: {
    approveRoute: 'approveDelivery',
    rejectRoute: 'rejectDelivery',
    approved: 'DELIVERY_APPROVED',
    rejected: 'DELIVERY_REJECTED',
    approveMeaning: AUDIT_MEANING.approveDelivery,
    rejectMeaning: AUDIT_MEANING.rejectDelivery,
  },
} as const;

/** A vote is possible only while the round waits, by one of its chosen approvers, once. */
function voteRefused(p: Package, round: VotingRound, user: UserRef): Response | null {
  if (p.status !== round.waiting) return fail(409, PACKAGE_ERR.notWaiting(round.noun));
  const mine = p[round.list].find((a) => a.user.id === user.id);
  if (!mine) return fail(403, PACKAGE_ERR.notVoter(round.noun));
  if (mine.approved || mine.rejected) return fail(409, PACKAGE_ERR.alreadyDecided);
  return null;
}

/** Only the package's signer, and only while it waits for the signature. */
function signRefused(p: Package, user: UserRef): Response | null {
  if (p.signer?.id !== user.id) return fail(403, PACKAGE_ERR.notSigner);
  if (!isWaitingForSignature(p.status)) return fail(409, PACKAGE_ERR.notWaitingForSignature);
  return null;
}

const decided = (entries: ApproverEntry[], user: UserRef, change: Partial<ApproverEntry>) =>
  entries.map((a) => (a.user.id === user.id ? { ...a, ...change, decidedAt: now() } : a));

const fileNameOf = (p: Package) => `${p.name.replace(/[^\w.-]+/g, '_')}.xml`;
const artefactKey = (p: Package) => `packages/${p.id}/${now().replace(/[:.]/g, '-')}-${fileNameOf(p)}`;

/** Mock generation: this many steps of progress, this far apart, before the package is ready. */
const GENERATION_STEPS = 4;
const GENERATION_STEP_MS = 400;

/**
 * The deciding call of a generation (decision 160): GENERATING with progress at once (202), the ready
 * package (APPROVED, or SIGNED with mLifePath) a few steps later, as the worker would make it.
 */
function generateLater(p: Package, next: Package, user: UserRef): Response {
  const total = 4 * 1024 * 1024;
  const generating = save({
    ...next,
    status: 'GENERATING',
    generation: {
      jobId: `mock-${p.id}-${now()}`,
      state: 'RUNNING',
      from: p.status,
      requestedBy: user,
      requestedAt: now(),
      bytesDone: 0,
      bytesTotal: total,
    },
  });
  for (let i = 1; i <= GENERATION_STEPS; i++) {
    setTimeout(() => {
      const cur = find(p.id);
      if (!cur || cur.status !== 'GENERATING' || !cur.generation) return;
      if (i < GENERATION_STEPS) {
        save({ ...cur, generation: { ...cur.generation, bytesDone: (total * i) / GENERATION_STEPS } });
        return;
      }
      const link = artefactKey(p);
      const ready = save({
        ...cur,
        status: nextStatus('GENERATING', 'generated', { signed: p.signed }) ?? cur.status,
        generation: undefined,
        linkToS3: link,
        ...(p.signed ? { mLifePath: link } : {}),
      });
      record(ready, user, 'PACKAGE_GENERATED', AUDIT_MEANING.generated);
    }, i * GENERATION_STEP_MS);
  }
  return json({ outcome: 'GENERATING', message: MSG.generating, package: pkgBody(generating) }, 202);
}

/** The last vote of a round: the status the lifecycle table gives, and what it makes. */
function completeRound(p: Package, next: Package, user: UserRef): Response {
  const status = nextStatus(p.status, p.status === DELIVERY_ROUND.waiting ? 'approveDelivery' : 'approve', {
    lastVote: true,
    signed: p.signed,
  });
  if (status === 'AWAITING_SIGNATURE') {
    const waiting = save({ ...next, status });
    return json({
      outcome: 'WAITING_FOR_SIGNING',
      message: MSG.approvedWaitingSigning,
      package: pkgBody(waiting),
    });
  }
  if (status === 'GENERATING') {
    record(next, user, 'FULLY_APPROVED', AUDIT_MEANING.generating);
    return generateLater(p, next, user);
  }
  const delivered = save({
    ...next,
    status: status ?? next.status,
    mLifePath: p.linkToS3 ?? `packages/${p.id}/${fileNameOf(p)}`,
  });
  record(delivered, user, 'DELIVERED', AUDIT_MEANING.delivered);
  return json({ outcome: 'DELIVERED', mLifePath: delivered.mLifePath, package: pkgBody(delivered) });
}

function approveIn(round: VotingRound) {
  const mock = ROUND_MOCK[round.name];
  return on(mock.approveRoute, async ({ request, params }) => {
    const g = packageFor(request, params.id);
    if (g.error) return g.error;
    const { p } = g;
    const s = await signedBody(request, g.user, round.vote === 'approve' ? 'approve' : 'approveDelivery');
    if ('error' in s) return s.error;
    const refused = voteRefused(p, round, g.user);
    if (refused) return refused;
    const entries = decided(p[round.list], g.user, { approved: true });
    const next = save({ ...p, [round.list]: entries });
    record(next, g.user, mock.approved, mock.approveMeaning, { signature: s.signature });
    if (entries.some((a) => !a.approved))
      return json(
        { outcome: 'WAITING_FOR_APPROVALS', message: MSG.approvedWaiting, package: pkgBody(next) },
        202,
      );
    return completeRound(p, next, g.user);
  });
}

/** The reason of a rejection, checked as the API checks it. */
function reasonOf(b: Record<string, unknown>): { error: Response } | { reason: string } {
  const parsed = rejectSchema.safeParse(b);
  if (!parsed.success) return { error: fail(400, parsed.error.issues[0]?.message ?? 'Bad request') };
  return { reason: parsed.data['rejection-reason'] };
}

function rejectIn(round: VotingRound) {
  const mock = ROUND_MOCK[round.name];
  return on(mock.rejectRoute, async ({ request, params }) => {
    const g = packageFor(request, params.id);
    if (g.error) return g.error;
    const { p } = g;
    const s = await signedBody(request, g.user, round.reject === 'reject' ? 'reject' : 'rejectDelivery');
    if ('error' in s) return s.error;
    const r = reasonOf(s.body);
    if ('error' in r) return r.error;
    const refused = voteRefused(p, round, g.user);
    if (refused) return refused;
    const next: Package = {
      ...p,
      status: nextStatus(p.status, round.reject) ?? round.rejected,
      rejectionNote: r.reason,
      [round.list]: decided(p[round.list], g.user, { rejected: true, rejectionNote: r.reason }),
    };
    record(next, g.user, mock.rejected, mock.rejectMeaning, {
      rejectionNote: r.reason,
      signature: s.signature,
    });
    return json({ status: 'REJECTED', message: MSG.rejectionConfirmed, package: pkgBody(save(next)) });
  });
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The XML a package downloads as (a stand-in for the real artefact). */
function xmlOf(p: Package): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<package xmlns="urn:firmware-release-portal:package:1" formatVersion="1">`,
    `  <metadata packageId="${escapeXml(p.id)}" name="${escapeXml(p.name)}" type="${p.type}"/>`,
    '</package>',
    '',
  ].join('\n');
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export const decisionHandlers = [
  approveIn(APPROVAL_ROUND),
  approveIn(DELIVERY_ROUND),
  on('signPackage', async ({ request, params }) => {
    const g = packageFor(request, params.id);
    if (g.error) return g.error;
    const { p } = g;
    const s = await signedBody(request, g.user, 'sign');
    if ('error' in s) return s.error;
    const refused = signRefused(p, g.user);
    if (refused) return refused;
    record(p, g.user, 'SIGNED', AUDIT_MEANING.sign, { signature: s.signature });
    return generateLater(p, p, g.user);
  }),
  on('rejectSigning', async ({ request, params }) => {
    const g = packageFor(request, params.id);
    if (g.error) return g.error;
    const { p } = g;
    const s = await signedBody(request, g.user, 'rejectSigning');
    if ('error' in s) return s.error;
    const r = reasonOf(s.body);
    if ('error' in r) return r.error;
    const refused = signRefused(p, g.user);
    if (refused) return refused;
    const next: Package = {
      ...p,
      status: nextStatus(p.status, 'rejectSigning') ?? p.status,
      rejectionNote: r.reason,
    };
    record(next, g.user, 'SIGNING_REJECTED', AUDIT_MEANING.rejectSigning, {
      rejectionNote: r.reason,
      signature: s.signature,
    });
    return json({ status: 'REJECTED', message: MSG.rejectionConfirmed, package: pkgBody(save(next)) });
  }),
  rejectIn(APPROVAL_ROUND),
  rejectIn(DELIVERY_ROUND),

  // history and download
  on('packageHistory', ({ request, params }) => {
    const g = packageFor(request, params.id, false);
    if (g.error) return g.error;
    const { p } = g;
    return json({ history: JSON.stringify(historyOf(p)), chainIntact: true, brokenAtSeq: null });
  }),
  // issue 25: the changes since the last approved package of the same device and resource type
  on('packageChanges', ({ request, params }) => {
    const g = packageFor(request, params.id, false);
    if (g.error) return g.error;
    const compared = (x: Package): ComparedPackage => ({ ...x, header: headerOf(x) });
    const current = compared(g.p);
    const key = approvedForKey(current);
    const before = approvalTime(current);
    const previous = key
      ? db.packages
          .filter((x) => x.id !== current.id && approvedForKey(x) === key)
          .map((x) => ({ x, at: approvalTime(x) }))
          .filter((c): c is { x: Package; at: string } => !!c.at && (!before || c.at < before))
          .sort((a, b) => (a.at < b.at ? 1 : -1))[0]?.x
      : undefined;
    const changes = packageChanges(current, previous ? compared(previous) : null);
    return json({
      changes: JSON.stringify(changes),
      previousPackageId: changes.previous?.id ?? null,
      ...(changes.previous ? {} : { message: key ? MSG.noEarlierApproved : MSG.changesNoDevice }),
    });
  }),
  // issue 16: one package and what waits for the caller, by the rules of the approval and signing lists
  on('packageDetails', ({ request, params }) => {
    const g = packageFor(request, params.id, false);
    if (g.error) return g.error;
    const { p, user } = g;
    const waits = (round: VotingRound) =>
      p.status === round.waiting &&
      p[round.list].some((a) => a.user.id === user.id && !a.approved && !a.rejected);
    const waitingFor = waits(APPROVAL_ROUND)
      ? 'APPROVE'
      : waits(DELIVERY_ROUND)
        ? 'APPROVE_DELIVERY'
        : isWaitingForSignature(p.status) && p.signer?.id === user.id
          ? 'SIGN'
          : null;
    return json({ package: pkgBody(p), waitingFor });
  }),
  on('downloadPackage', async ({ request, params }) => {
    const g = packageFor(request, params.id, false);
    if (g.error) return g.error;
    const { p } = g;
    if (!isGenerated(p.status)) return fail(409, PACKAGE_ERR.notGenerated);
    const bytes = new TextEncoder().encode(xmlOf(p));
    const facts = { fileName: fileNameOf(p), sizeBytes: bytes.length, sha256: await sha256Hex(bytes) };
    if (LARGE_PACKAGE_IDS.includes(p.id))
      return json({
        ...facts,
        downloadUrl: new URL(`/mock-storage/artefacts/${p.id}.xml`, location.href).toString(),
      });
    return json({ ...facts, base64EncodedXMLPackage: btoa(String.fromCharCode(...bytes)) });
  }),
  http.get('/mock-storage/artefacts/:file', ({ params }) => {
    ensure();
    const p = find(String(params.file).replace(/\.xml$/, ''));
    if (!p)
      return new HttpResponse(
        '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
        {
          status: 404,
          headers: { 'Content-Type': 'application/xml' },
        },
      );
    const bytes = new TextEncoder().encode(xmlOf(p));
    return new HttpResponse(bytes, {
      headers: { 'Content-Type': 'application/xml', 'Content-Length': String(bytes.length) },
    });
  }),
];
