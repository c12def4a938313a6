import { Alert, Button, Flex, SelectField } from '@aws-amplify/ui-react';
import type { Package, SignatureProof, UserRef } from '@shared/api/contracts/packages';
import { canTransition } from '@shared/domain/package-lifecycle';
import { type Role, roleLabel } from '@shared/domain/roles';
import { seatLabel } from '@shared/domain/seats';
import { REASSIGN_MEANING, WITHDRAW_MEANING } from '@shared/domain/signature-meanings';
import { useState } from 'react';
import { SignatureDialog } from '@/components/ui/signature-dialog';
import { paths } from '@/config/paths';
import { useApiQuery } from '@/hooks/use-api-query';
import { showRefusal, showSuccess } from '@/lib/popup/popup-store';
import type { SessionUser } from '@/lib/session/session-store';
import { getApprovers } from '../api/approvers';
import { isWrongPassword } from '../api/decisions';
import { type DepartureView, getDepartures, reassignPlace, withdrawPackage } from '../api/people';

type Pkg = Pick<Package, 'id' | 'name' | 'type' | 'resourceName' | 'resourceFile' | 'status' | 'initiator'>;

/** The initiator or an admin: who may reassign or withdraw (the lifecycle's `owner`, decision 351). */
export const isOwner = (pkg: Pick<Package, 'initiator'>, user: SessionUser | null | undefined) =>
  !!user && (user.id === pkg.initiator.id || user.userRole === 'ADMIN');

/** Answers a signed change: the dialog keeps a refused proof; anything else closes it with a popup. */
function settle(r: Awaited<ReturnType<typeof withdrawPackage>>, close: () => void): string | null {
  if (!r.ok && r.status === 403 && isWrongPassword(r.error)) return r.error.errorMessage;
  close();
  if (r.ok) showSuccess(r.data.message, { to: paths.home });
  else showRefusal(r.status, r.error.errorMessage);
  return null;
}

/** One departure: the sentence, and for the owner the choice of who takes the place. */
function DepartureRow({ pkg, d, owner }: { pkg: Pkg; d: DepartureView; owner: boolean }) {
  const candidates = useApiQuery(
    (signal) =>
      owner
        ? getApprovers(pkg.id, d.seat === 'signer', signal)
        : Promise.resolve({ ok: true as const, status: 200, data: { approvers: {}, signers: [] } }),
    [pkg.id, owner, d.seat],
  );
  const list: UserRef[] =
    (d.seat === 'signer' ? candidates.data?.signers : candidates.data?.approvers[d.role as Role])?.filter(
      (c) => c.id !== d.userId,
    ) ?? [];
  const [chosen, setChosen] = useState('');
  const [signing, setSigning] = useState(false);
  // the only candidate is chosen from the start
  const to = chosen || (list.length === 1 ? (list[0]?.id ?? '') : '');
  const toName = list.find((c) => c.id === to)?.name ?? '';

  const submit = async (proof: SignatureProof, reason: string) =>
    settle(await reassignPlace(pkg.id, { seat: d.seat, from: d.userId, to, reason }, proof), () =>
      setSigning(false),
    );

  return (
    <li className="frp-departure" data-testid="departure">
      <p>
        <strong>This package {d.text}.</strong>
      </p>
      {owner ? (
        <Flex alignItems="flex-end" gap="0.75rem" wrap="wrap">
          <SelectField
            label={`New ${seatLabel(d.seat)} (${roleLabel(d.role)})`}
            value={to}
            onChange={(e) => setChosen(e.target.value)}
            placeholder={
              list.length === 0 ? `No one else holds ${roleLabel(d.role)}: ask an admin` : 'Choose…'
            }
            isDisabled={list.length === 0}
          >
            {list.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.email})
              </option>
            ))}
          </SelectField>
          <Button variation="primary" isDisabled={!to} onClick={() => setSigning(true)}>
            Reassign…
          </Button>
        </Flex>
      ) : null}
      {signing ? (
        <SignatureDialog
          pkg={pkg}
          action="reassign"
          title="Sign: Reassign"
          meaning={REASSIGN_MEANING}
          intro={
            <>
              You give the place of <strong>{d.name}</strong> as {seatLabel(d.seat)} ({roleLabel(d.role)}) on{' '}
              <strong>{pkg.name}</strong> to <strong>{toName}</strong>. Both are told by mail, with your
              reason.
            </>
          }
          onCancel={() => setSigning(false)}
          onSubmit={submit}
        />
      ) : null}
    </li>
  );
}

/**
 * Change of people on a package page (decision 351): whom the package waits on who left their role, said
 * to everyone who opens it; its initiator and admins reassign the place here.
 */
export function Departures({ pkg, user }: { pkg: Pkg; user: SessionUser | null | undefined }) {
  const query = useApiQuery((signal) => getDepartures(pkg.id, signal), [pkg.id, pkg.status]);
  const departures = query.data ?? [];
  if (departures.length === 0) return null;
  const owner = isOwner(pkg, user);
  return (
    <Alert variation="warning" heading="Waiting on someone who left their role" marginBottom="1.25rem">
      <ul className="frp-departures" aria-label="People who left their role">
        {departures.map((d) => (
          <DepartureRow key={`${d.seat}-${d.userId}`} pkg={pkg} d={d} owner={owner} />
        ))}
      </ul>
      {owner && canTransition(pkg.status, 'withdraw') ? (
        <p className="frp-muted">
          Or press <strong>Withdraw to draft…</strong> at the foot of the page: the package becomes an
          editable draft and you choose its approvers again.
        </p>
      ) : null}
      {!owner ? <p className="frp-muted">Its initiator or an admin can reassign the place.</p> : null}
    </Alert>
  );
}

/** Withdraw (decision 351): the owner's signed return of a package in approval to an editable draft. */
export function WithdrawButton({ pkg, user }: { pkg: Pkg; user: SessionUser | null | undefined }) {
  const [signing, setSigning] = useState(false);
  if (!isOwner(pkg, user) || !canTransition(pkg.status, 'withdraw')) return null;
  const submit = async (proof: SignatureProof, reason: string) =>
    settle(await withdrawPackage(pkg.id, reason, proof), () => setSigning(false));
  return (
    <>
      <Button onClick={() => setSigning(true)}>Withdraw to draft…</Button>
      {signing ? (
        <SignatureDialog
          pkg={pkg}
          action="withdraw"
          title="Sign: Withdraw to draft"
          meaning={WITHDRAW_MEANING}
          intro={
            <>
              You withdraw <strong>{pkg.name}</strong> from approval. It becomes an editable draft; every
              approval of this round is cleared and everyone chosen is told by mail, with your reason.
            </>
          }
          onCancel={() => setSigning(false)}
          onSubmit={submit}
        />
      ) : null}
    </>
  );
}
