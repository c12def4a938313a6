import { Button } from '@aws-amplify/ui-react';
import type { SignatureProof } from '@shared/api/contracts/packages';
import type { PublicUser, RoleDecisionOutcome } from '@shared/api/contracts/user';
import { roleStatusText } from '@shared/domain/list-columns';
import { ROLE_GRANT_MEANINGS } from '@shared/domain/role-grants';
import { GOVERNANCE_MEANINGS } from '@shared/domain/role-revocations';
import { roleLabel } from '@shared/domain/roles';
import { useState } from 'react';
import { SignatureDialog } from '@/components/ui/signature-dialog';
import { isProofRefusal } from '@/lib/passkeys/passkey-api';
import { showSuccess, showWarning } from '@/lib/popup/popup-store';
import { useSession } from '@/lib/session/session-store';
import { decideRoles } from '../api/admin-api';

/**
 * Grant and Refuse on the admin users screen (decision 180). A grant is signed (the
 * package decisions' signature dialog) and takes two admins: it proposes where no grant is pending and
 * confirms what another admin proposed. A refusal or revocation is signed too, with a reason; it takes a
 * second admin when it would leave a role the approval policy needs without a holder (decision 357).
 * What happened to each user is said under the list.
 */

// the Role status column's text, shared with the server's paged user list (decision 221)
export { roleStatusText };

/** a pending grant, with who proposed it. */
export function proposalText(u: PublicUser, me?: string): string | null {
  const p = u.roleProposal;
  if (!p) return null;
  const who = p.proposedBy.id === me ? 'you' : `${p.proposedBy.name} (${p.proposedBy.email})`;
  return `Grant proposed by ${who}; waits for a second admin`;
}

/** a pending revocation, with who proposed it and why. */
export function revocationText(u: PublicUser, me?: string): string | null {
  const p = u.revocationProposal;
  if (!p) return null;
  const who = p.proposedBy.id === me ? 'you' : `${p.proposedBy.name} (${p.proposedBy.email})`;
  return `Revocation proposed by ${who}; waits for a second admin. Reason: ${p.reason}`;
}

/** The Role status cell: the status, and under it a pending proposal. */
export function RoleStatusCell({ user }: { user: PublicUser }) {
  const me = useSession().user?.id;
  const proposal = proposalText(user, me) ?? revocationText(user, me);
  return (
    <>
      <span className={`frp-role-status frp-role-status--${(user.roleStatus ?? 'GRANTED').toLowerCase()}`}>
        {roleStatusText(user)}
      </span>
      {proposal ? <span className="frp-role-proposal">{proposal}</span> : null}
    </>
  );
}

/** What a grant by `me` will do to `u` (the server decides; this is what the dialog says first). */
function grantWillDo(u: PublicUser, me: string | undefined): string {
  const p = u.roleProposal;
  if (!p) return 'proposes the grant: a second admin must confirm it';
  if (p.proposedBy.id === me) return 'you proposed it: another admin must confirm it (refused)';
  return `confirms the proposal of ${p.proposedBy.name}: the role takes effect`;
}

/** What a refusal by `me` will do to `u` (the server decides, by the approval policy's quorum). */
function refusalWillDo(u: PublicUser, me: string | undefined): string {
  if (u.roleStatus !== 'GRANTED') return 'refuses the requested role now';
  const p = u.revocationProposal;
  if (!p)
    return 'revokes it now; if it leaves no one holding a role the approval policy needs, it proposes the revocation and a second admin must confirm it';
  if (p.proposedBy.id === me) return 'you proposed its revocation: another admin must confirm it (refused)';
  return `confirms the revocation ${p.proposedBy.name} proposed ("${p.reason}"): the role ends`;
}

const OUTCOME_TEXT: Record<RoleDecisionOutcome, string> = {
  PROPOSED: 'Proposed: waits for a second admin to confirm it',
  GRANTED: 'Granted: the role is in effect',
  REFUSED: 'Refused: the account holds no role authority',
  REVOCATION_PROPOSED: 'Revocation proposed: waits for a second admin to confirm it',
};

export interface DecisionReport {
  rows: { id: string; label: string; outcome: RoleDecisionOutcome }[];
}

/** Under the list: what the last decision did, per user. */
export function DecisionReportList({ report }: { report: DecisionReport }) {
  return (
    <section className="frp-role-report" aria-labelledby="frp-role-report-title">
      <h2 id="frp-role-report-title" className="frp-role-report__title">
        What your last decision did
      </h2>
      <ul>
        {report.rows.map((r) => (
          <li key={r.id}>
            <strong>{r.label}</strong>: {OUTCOME_TEXT[r.outcome]}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Grant / Refuse for the selected users; the server says why a decision is refused. */
export function RoleDecisionButtons({
  selected,
  done,
  rows,
  onReport,
}: {
  selected: readonly string[];
  done: () => void;
  rows: readonly PublicUser[];
  onReport: (report: DecisionReport) => void;
}) {
  const me = useSession().user?.id;
  const [signing, setSigning] = useState<'grant' | 'refuse' | null>(null);
  const chosen = rows.filter((u) => selected.includes(u.id));
  // the roles as this list shows them: a request changed since is refused by the server, not decided
  const roles = Object.fromEntries(chosen.map((u) => [u.id, u.userRole]));

  const decide = async (
    decision: 'grant' | 'refuse',
    proof: SignatureProof,
    reason?: string,
  ): Promise<string | null> => {
    if (selected.length === 0) return null;
    const result = await decideRoles(decision, selected, roles, proof, reason);
    if (!result.ok && result.status === 403 && isProofRefusal(result.error)) return result.error.errorMessage;
    setSigning(null);
    if (result.ok) {
      const outcomes = result.data.outcomes;
      onReport({
        rows: chosen
          .filter((u) => outcomes[u.id])
          .map((u) => ({ id: u.id, label: `${u.name} (${u.email})`, outcome: outcomes[u.id]! })),
      });
      done();
      showSuccess(result.data.message);
    } else showWarning(result.error.errorMessage);
    return null;
  };

  const applying = [
    ...(chosen.some((u) => !u.roleProposal) ? [ROLE_GRANT_MEANINGS.proposeRole] : []),
    ...(chosen.some((u) => u.roleProposal && u.roleProposal.proposedBy.id !== me)
      ? [ROLE_GRANT_MEANINGS.confirmRole]
      : []),
  ];
  const meanings = applying.length > 0 ? applying : [ROLE_GRANT_MEANINGS.proposeRole];
  const count = selected.length > 0 ? ` (${selected.length})` : '';
  return (
    <>
      <Button variation="primary" isDisabled={selected.length === 0} onClick={() => setSigning('grant')}>
        {`Grant${count}`}
      </Button>
      <Button isDisabled={selected.length === 0} onClick={() => setSigning('refuse')}>
        {`Refuse${count}`}
      </Button>
      {signing === 'refuse' && chosen.length > 0 ? (
        <SignatureDialog
          action="refuseRoles"
          title="Sign: Refuse or revoke roles"
          intro="Refusing a requested role or revoking a granted one is an electronic signature with a reason: the person reads it by mail. It takes a second admin when it would leave no one holding a role the approval policy needs."
          facts={chosen.map((u) => ({
            label: `${u.name} (${u.email})`,
            value: `${roleLabel(u.userRole)} (${roleStatusText(u)}): ${refusalWillDo(u, me)}`,
          }))}
          meaning={refusalMeanings(chosen, me).map((m) => <blockquote key={m}>{m}</blockquote>)}
          onCancel={() => setSigning(null)}
          onSubmit={(proof, reason) => decide('refuse', proof, reason)}
        />
      ) : null}
      {signing === 'grant' && chosen.length > 0 ? (
        <SignatureDialog
          action="grantRoles"
          title="Sign: Grant roles"
          intro="A grant takes two admins: where no grant is pending yours proposes it; where another admin proposed it, yours confirms it."
          facts={chosen.map((u) => ({
            label: `${u.name} (${u.email})`,
            value: `${roleLabel(u.requestedRole ?? u.userRole)}: ${grantWillDo(u, me)}`,
          }))}
          meaning={meanings.map((m) => <blockquote key={m}>{m}</blockquote>)}
          onCancel={() => setSigning(null)}
          onSubmit={(proof) => decide('grant', proof)}
        />
      ) : null}
    </>
  );
}

/** The meanings a refusal of `chosen` by `me` may sign (the server records the one each account took). */
function refusalMeanings(chosen: readonly PublicUser[], me: string | undefined): string[] {
  const confirming = chosen.some((u) => u.revocationProposal && u.revocationProposal.proposedBy.id !== me);
  const fresh = chosen.some((u) => !u.revocationProposal);
  const granted = chosen.some((u) => u.roleStatus === 'GRANTED' && !u.revocationProposal);
  return [
    ...(fresh ? [GOVERNANCE_MEANINGS.refuseRole] : []),
    ...(granted ? [GOVERNANCE_MEANINGS.proposeRevocation] : []),
    ...(confirming ? [GOVERNANCE_MEANINGS.confirmRevocation] : []),
  ];
}
