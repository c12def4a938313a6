import { Button } from '@aws-amplify/ui-react';
import type { PasskeyView } from '@shared/api/contracts/passkeys';
import type { PublicUser } from '@shared/api/contracts/user';
import { PASSKEY_REMOVAL_MEANINGS } from '@shared/domain/passkeys';
import { useState } from 'react';
import { SignatureDialog } from '@/components/ui/signature-dialog';
import { isProofRefusal } from '@/lib/passkeys/passkey-api';
import { showSuccess, showWarning } from '@/lib/popup/popup-store';
import { useSession } from '@/lib/session/session-store';
import { decidePasskeyRemoval, signInMethodsOf } from '../api/admin-api';

/** The sign-in methods of a user as the admins' list shows them (decision 323). */
export function signInMethodsText(u: Pick<PublicUser, 'passkeys' | 'passwordless'>): string {
  const n = u.passkeys ?? 0;
  // an account made by a company sign-in has no portal password (decision 317)
  const first = u.passwordless ? 'Company sign-on' : 'Password';
  return n === 0 ? first : `${first} + ${n} passkey${n === 1 ? '' : 's'}`;
}

/**
 * "Remove passkey" for one selected user with passkeys (decision 323): the admin picks the lost passkey and
 * signs with a reason; the first admin's signature proposes the removal, a second admin's confirms it.
 */
export function PasskeyRemovalButton({
  selected,
  rows,
  done,
}: {
  selected: readonly string[];
  rows: readonly PublicUser[];
  done: () => void;
}) {
  const me = useSession().user?.id;
  const owner = selected.length === 1 ? rows.find((u) => u.id === selected[0]) : undefined;
  const [passkeys, setPasskeys] = useState<PasskeyView[] | null>(null);
  const [chosen, setChosen] = useState<PasskeyView | null>(null);
  const usable = owner !== undefined && owner.id !== me && (owner.passkeys ?? 0) > 0;

  const open = async () => {
    if (!owner) return;
    const r = await signInMethodsOf(owner.id);
    if (!r.ok) return showWarning(r.error.errorMessage);
    setPasskeys(r.data.passkeys);
    setChosen(r.data.passkeys[0] ?? null);
  };

  const submit = async (proof: Parameters<typeof decidePasskeyRemoval>[2], reason: string) => {
    if (!owner || !chosen) return null;
    const r = await decidePasskeyRemoval(owner.id, chosen.id, proof, reason);
    if (!r.ok && r.status === 403 && isProofRefusal(r.error)) return r.error.errorMessage;
    setPasskeys(null);
    if (r.ok) {
      done();
      showSuccess(r.data.message);
    } else showWarning(r.error.errorMessage);
    return null;
  };

  const confirming = chosen?.removalProposal && chosen.removalProposal.proposedBy.id !== me;
  return (
    <>
      <Button isDisabled={!usable} onClick={() => void open()}>
        Remove passkey
      </Button>
      {owner && passkeys && chosen ? (
        <SignatureDialog
          action="removePasskey"
          title="Sign: Remove a lost passkey"
          intro="A removal takes two admins: yours proposes it, or confirms the one another admin proposed. The account's sessions end once it is removed."
          facts={[
            { label: 'Account', value: `${owner.name} (${owner.email})` },
            {
              label: 'Passkey',
              value: (
                <select
                  aria-label="Passkey to remove"
                  value={chosen.id}
                  onChange={(e) => setChosen(passkeys.find((p) => p.id === e.target.value) ?? chosen)}
                >
                  {passkeys.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                      {p.removalProposal ? ` — removal proposed by ${p.removalProposal.proposedBy.name}` : ''}
                    </option>
                  ))}
                </select>
              ),
            },
            ...(chosen.removalProposal
              ? [{ label: 'Proposed because', value: chosen.removalProposal.reason }]
              : []),
          ]}
          meaning={
            <blockquote>
              {confirming ? PASSKEY_REMOVAL_MEANINGS.confirmRemoval : PASSKEY_REMOVAL_MEANINGS.proposeRemoval}
            </blockquote>
          }
          onCancel={() => setPasskeys(null)}
          onSubmit={submit}
        />
      ) : null}
    </>
  );
}
