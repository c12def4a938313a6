import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { localBucket } from '../../infra/local/local-aws';
import type { Package } from '../../shared/api/contracts/packages';
import { type ApiResult, api } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { approversFor, chosenApprovers, seededSigner } from '../support/package-flow';
import { dynamoAt, s3At, tableOf } from '../support/store';

/**
 * Two signs, or a sign and a reject-signing, sent at once by the package's signer: exactly one takes
 * effect, with exactly one event. A SIGNED package has exactly one signed XML in the artefacts bucket (the
 * one it points at), a REJECTED one has none; the loser is told so with a 409, never a 5xx. A second sign
 * that finds the signature committed and its generation not yet taken by a worker is the signer's retry
 * (decision 284): it answers the same generation (202, the same job) and records nothing.
 */
type Users = Awaited<ReturnType<typeof seededUsers>>;
let u: Users;
beforeAll(async () => {
  u = await seededUsers();
});

const later = <T>(ms: number, start: () => Promise<T>) =>
  new Promise<T>((resolve, reject) => setTimeout(() => start().then(resolve, reject), ms));

/** A DEV_SIGNED package its four approvers approved: it waits for the seeded release engineer's signature. */
async function awaitingSignature(): Promise<Package> {
  const resource = await uploadPatch(u.designDev.token, 'dev', 64 * 1024);
  const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED');
  const dccId = await createDcc(u.designDev.token);
  expect(
    (await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
  ).toBe(200);
  const n = await api(`/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: chosenApprovers(u, pkg.type), signer: seededSigner(u).id },
  });
  expect(n.status, JSON.stringify(n.body)).toBe(200);
  // the policy's approvers, in its order (decision 272)
  for (const v of approversFor(u, pkg.type))
    expect(
      (await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: v.token })).status,
    ).toBeLessThan(300);
  return pkg;
}

const sign = (id: string) =>
  api(`/packages/${id}/generate-signed`, { method: 'POST', token: seededSigner(u).token });
const rejectSigning = (id: string) =>
  api(`/packages/${id}/reject-signing`, {
    method: 'POST',
    token: seededSigner(u).token,
    body: { 'rejection-reason': 'Raced: wrong key slot in the header' },
  });

async function artefactKeys(id: string): Promise<string[]> {
  const r = await s3At(inject('s3Endpoint')).send(
    new ListObjectsV2Command({ Bucket: localBucket('artefacts'), Prefix: `packages/${id}/` }),
  );
  return (r.Contents ?? []).map((o) => o.Key ?? '');
}

async function stored(id: string) {
  const r = await dynamoAt(inject('dynamoEndpoint')).send(
    new GetCommand({
      TableName: tableOf('packages'),
      Key: { pk: `PKG#${id}`, sk: 'PKG' },
      ConsistentRead: true,
    }),
  );
  return r.Item as { status: string; artefact?: { key: string; statementKey?: string } } | undefined;
}

function expectLoser(label: string, r: ApiResult) {
  expect(r.status, `${label}: ${JSON.stringify(r.body)}`).toBe(409);
  expect(r.body.errorMessage, label).toMatch(/signed|rejected|not waiting for a signature/i);
}

type Call = 'sign' | 'reject';
// Each round races two calls on a fresh package; the second starts a little later in some rounds so
// that each kind sometimes wins and sometimes loses.
const rounds: { calls: [Call, Call]; secondAfterMs: number }[] = [
  { calls: ['sign', 'sign'], secondAfterMs: 0 },
  { calls: ['sign', 'sign'], secondAfterMs: 30 },
  { calls: ['sign', 'reject'], secondAfterMs: 0 },
  { calls: ['sign', 'reject'], secondAfterMs: 40 },
  { calls: ['reject', 'sign'], secondAfterMs: 0 },
  { calls: ['reject', 'sign'], secondAfterMs: 20 },
];

describe('signing races', () => {
  it.each(rounds.map((r, i) => [i + 1, r.calls.join(' vs '), r.secondAfterMs, r] as const))(
    'round %i (%s, second after %i ms) has exactly one outcome and the bucket matches it',
    async (_, _label, _ms, round) => {
      const pkg = await awaitingSignature();
      const start = (c: Call) => (c === 'sign' ? sign(pkg.id) : rejectSigning(pkg.id));
      const [a, b] = await Promise.all([
        start(round.calls[0]),
        later(round.secondAfterMs, () => start(round.calls[1])),
      ]);
      const answers = [
        { call: round.calls[0], r: a },
        { call: round.calls[1], r: b },
      ];
      // a sign wins with 202 GENERATING (the XML follows off the request path, decision 160), a refusal with 200
      const accepted = answers.filter((x) => x.r.status === 200 || x.r.status === 202);
      const jobOf = (x: (typeof answers)[number]) =>
        (JSON.parse(String(x.r.body.package)) as Package).generation?.jobId;
      // two signs both answered: the second found the first committed (the same generation job)
      const winners =
        accepted.length === 2 &&
        accepted.every((x) => x.call === 'sign') &&
        jobOf(accepted[0]!) === jobOf(accepted[1]!)
          ? accepted.slice(0, 1)
          : accepted;
      expect(winners, JSON.stringify(answers.map((x) => [x.call, x.r.status, x.r.body]))).toHaveLength(1);
      for (const x of answers) if (!accepted.includes(x)) expectLoser(x.call, x.r);

      let item = await stored(pkg.id);
      if (winners[0]!.call === 'sign') {
        expect([winners[0]!.r.status, winners[0]!.r.body.outcome]).toEqual([202, 'GENERATING']);
        for (let i = 0; i < 300 && item?.status === 'GENERATING'; i++) {
          await later(100, async () => undefined);
          item = await stored(pkg.id);
        }
      }
      const keys = await artefactKeys(pkg.id);
      if (winners[0]!.call === 'sign') {
        expect(item?.status).toBe('SIGNED');
        // the signed XML and its provenance statement beside it (decision 279), nothing else
        expect(keys.sort(), 'exactly the one signed artefact the package points at').toEqual(
          [item?.artefact?.key, item?.artefact?.statementKey].sort(),
        );
        expect((item as { mLifePath?: string })?.mLifePath).toBe(item?.artefact?.key);
      } else {
        expect(item?.status).toBe('REJECTED');
        expect(keys, 'no artefact is left on a rejected package').toEqual([]);
      }
      // exactly one decision on the record
      const h = await api<{ history: string }>(`/packages/${pkg.id}/history`, { token: u.designDev.token });
      const actions = (JSON.parse(h.body.history) as { action: string }[]).map((e) => e.action);
      expect(actions.filter((a) => a === 'SIGNED' || a === 'SIGNING_REJECTED')).toHaveLength(1);
      // a late call after the race is a clear 409 too, and changes nothing
      expectLoser('late sign', await sign(pkg.id));
      expectLoser('late reject-signing', await rejectSigning(pkg.id));
      expect(await artefactKeys(pkg.id)).toEqual(keys);
    },
    90_000,
  );
});
