import { Button } from '@aws-amplify/ui-react';
import type { SignatureProof } from '@shared/api/contracts/packages';
import type { PublicUser } from '@shared/api/contracts/user';
import { SIGNATURE_PASSWORD_WRONG } from '@shared/domain/signature-meanings';
import { useState } from 'react';
import { SignatureDialog } from '@/components/ui/signature-dialog';
import { showSuccess, showWarning } from '@/lib/popup/popup-store';
import { useSession } from '@/lib/session/session-store';
import { decideCompanyLinks } from '../api/admin-api';

/**
 * The admins' view of company identities (decision 315): who signs in with which identity, and the links
 * owners asked for, which two admins decide (one proposes, a second confirms; refusing takes one).
 */

const LINKED_BY_TEXT = {
  FIRST_SIGN_IN: 'first sign-in',
  PASSWORD: 'owner’s password',
  ADMINS: 'two admins',
} as const;

/** The Company sign-on column: the linked identity, or a requested link and its proposal. */
export function CompanyIdentityCell({ user }: { user: PublicUser }) {
  const me = useSession().user?.id;
  const linked = user.companyIdentity;
  const asked = user.companyLinkRequest;
  if (!linked && !asked) return <span className="frp-muted">Portal password only</span>;
  return (
    <>
      {linked ? (
        <span>{`Linked: ${linked.email} (${LINKED_BY_TEXT[linked.linkedBy]})${user.passwordless ? ', no portal password' : ''}`}</span>
      ) : null}
      {asked ? (
        <span className="frp-role-proposal">
          {`Link requested by ${asked.email}`}
          {asked.proposedBy
            ? `; proposed by ${asked.proposedBy.id === me ? 'you' : asked.proposedBy.name}, waits for a second admin`
            : '; waits for two admins'}
        </span>
      ) : null}
    </>
  );
}

/** A text of the column for search and sort. */
export const companyIdentityText = (u: PublicUser): string =>
  u.companyIdentity
    ? `linked ${u.companyIdentity.email}`
    : u.companyLinkRequest
      ? `link requested ${u.companyLinkRequest.email}`
      : '';

const LINK_MEANING =
  'I propose, or confirm another administrator’s proposal, that this company identity signs in as the account shown';

/** Link / Refuse link for the selected users whose owners asked for a link. */
export function CompanyLinkButtons({
  selected,
  done,
  rows,
}: {
  selected: readonly string[];
  done: () => void;
  rows: readonly PublicUser[];
}) {
  const me = useSession().user?.id;
  const [signing, setSigning] = useState(false);
  const chosen = rows.filter((u) => selected.includes(u.id) && u.companyLinkRequest);
  if (!rows.some((u) => u.companyLinkRequest)) return null;
  const decide = async (decision: 'LINK' | 'REFUSE', proof?: SignatureProof): Promise<string | null> => {
    const r = await decideCompanyLinks(
      decision,
      chosen.map((u) => u.id),
      proof,
    );
    if (!r.ok && r.status === 403 && r.error.errorMessage === SIGNATURE_PASSWORD_WRONG)
      return r.error.errorMessage;
    setSigning(false);
    if (r.ok) {
      done();
      showSuccess(r.data.message);
    } else showWarning(r.error.errorMessage);
    return null;
  };
  const count = chosen.length > 0 ? ` (${chosen.length})` : '';
  return (
    <>
      <Button isDisabled={chosen.length === 0} onClick={() => setSigning(true)}>
        {`Link company identity${count}`}
      </Button>
      <Button isDisabled={chosen.length === 0} onClick={() => void decide('REFUSE')}>
        {`Refuse link${count}`}
      </Button>
      {signing && chosen.length > 0 ? (
        <SignatureDialog
          action="grantRoles"
          title="Sign: Link company identities"
          actionLabel="Sign and link"
          intro="A link takes two admins: where none is proposed yours proposes it; where another admin proposed it, yours confirms it."
          facts={chosen.map((u) => ({
            label: `${u.name} (${u.email})`,
            value: `signs in as ${u.companyLinkRequest!.email} (subject ${u.companyLinkRequest!.subject}): ${
              u.companyLinkRequest!.proposedBy
                ? u.companyLinkRequest!.proposedBy.id === me
                  ? 'you proposed it (refused: another admin confirms)'
                  : `confirms the proposal of ${u.companyLinkRequest!.proposedBy.name}`
                : 'proposes the link'
            }`,
          }))}
          meaning={<blockquote>{LINK_MEANING}</blockquote>}
          onCancel={() => setSigning(false)}
          onSubmit={(proof) => decide('LINK', proof)}
        />
      ) : null}
    </>
  );
}
