import { Alert, Flex, SelectField } from '@aws-amplify/ui-react';
import type { Package, SignatureProof, UserRef } from '@shared/api/contracts/packages';
import { APPROVAL_POLICY, approverRoles, needsSigner } from '@shared/domain/approval-policy';
import type { RoundName } from '@shared/domain/package-lifecycle';
import { quorumWarning } from '@shared/domain/package-rules';
import { PACKAGE_ERR } from '@shared/domain/package-texts';
import { type Role, roleLabel } from '@shared/domain/roles';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { StepButtons } from '@/components/ui/form-parts';
import { SignatureDialog } from '@/components/ui/signature-dialog';
import { paths } from '@/config/paths';
import { useApiQuery } from '@/hooks/use-api-query';
import { showRefusal, showSuccess } from '@/lib/popup/popup-store';
import { useSession } from '@/lib/session/session-store';
import { type ApproverCandidates, getApprovers, notifyApprovers } from '../api/approvers';
import { isWrongPassword } from '../api/decisions';
import { creationTitle } from '../utils/package-flow';
import { CreationSteps, PackageStrip } from './package-fields';
import { NoPackage, PackagePage, PackageSection } from './package-page';

/** The voting round the screen chooses approvers for. */
const roundOf = (delivery: boolean): RoundName => (delivery ? 'delivery' : 'approval');

/**
 * Spec §5 notify rules as warnings, by the approval policy (shared/domain/approval-policy.ts): a signed
 * package without signers ('No signers in the system!'); fewer approver roles with candidates than the
 * round's minimum, in both flows (decision 332): the spec's 'Not enough approvers in the system!' for a
 * signed release package, then for every round how many are needed and whom an admin could grant, the
 * words the API refuses it with. Pure, so the tests read it as the spec's table.
 */
export function notifyWarnings(
  pkg: Pick<Package, 'type' | 'signed'>,
  candidates: ApproverCandidates,
  delivery: boolean,
): string[] {
  const warnings: string[] = [];
  const round = roundOf(delivery);
  const withCandidates = new Set(
    Object.entries(candidates.approvers)
      .filter(([, users]) => users && users.length > 0)
      .map(([role]) => role),
  );
  if (needsSigner(round, pkg) && candidates.signers.length === 0) warnings.push(MSG.noSigners);
  const short = quorumWarning(round, pkg.type, withCandidates);
  if (short) warnings.push(short);
  if (withCandidates.size === 0) warnings.push('There are no approvers in the system');
  return warnings;
}

const userOption = (u: UserRef) => `${u.name} (${u.email})`;

/**
 * Re-deliver: the delivery approvers of the previous delivery, per role, as far as they
 * can still be chosen (each is one of the role's candidates now).
 */
export function previousDeliveryChoices(
  pkg: Pick<Package, 'deliveryApprovers'>,
  candidates: ApproverCandidates | undefined,
): Partial<Record<Role, string>> {
  const out: Partial<Record<Role, string>> = {};
  if (!candidates) return out;
  for (const entry of pkg.deliveryApprovers) {
    const offered = candidates.approvers[entry.role as Role] ?? [];
    if (offered.some((u) => u.id === entry.user.id)) out[entry.role as Role] = entry.user.id;
  }
  return out;
}

/** A required choice of one person (an approver of a role, the signer). */
function UserSelect({
  users,
  onChange,
  ...field
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (id: string) => void;
  users: readonly UserRef[];
  descriptiveText?: string;
  isDisabled?: boolean;
}) {
  return (
    <SelectField {...field} onChange={(e) => onChange(e.target.value)} isRequired>
      {users.map((u) => (
        <option key={u.id} value={u.id}>
          {userOption(u)}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * Spec §2.8, §4.2 step 5 /packages/notify-approvers: one approver per role, plus a signer for signed
 * packages; 'Notify' sends, 'Notification was sent successfully' then /home. In the delivery flow
 * (deliver, re-deliver) the same page chooses the delivery approvers.
 */
export function NotifyApproversPage() {
  const { currentPackage: pkg, flowPurpose, subHeader } = useSession();
  const delivery = flowPurpose === 'delivery';
  const withSigner = Boolean(pkg) && needsSigner(roundOf(delivery), { signed: Boolean(pkg?.signed) });
  const query = useApiQuery(
    (signal) =>
      pkg
        ? getApprovers(pkg.id, withSigner, signal)
        : Promise.resolve({ ok: false as const, status: 0, error: { errorMessage: '' } }),
    [pkg?.id, withSigner],
  );
  const [chosen, setChosen] = useState<Partial<Record<Role, string>>>({});
  const [signer, setSigner] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** a delivery is signed: Notify opens the signature dialog first (decision 141) */
  const [signing, setSigning] = useState(false);
  if (!pkg) return <NoPackage />;

  const candidates = query.data;
  // the round's approving roles (the approval policy's) that have candidates, in the product's order
  const roles = candidates
    ? approverRoles(roundOf(delivery), pkg.type).filter((r) => (candidates.approvers[r]?.length ?? 0) > 0)
    : [];
  const warnings = candidates ? notifyWarnings(pkg, candidates, delivery) : [];
  const previous = delivery ? previousDeliveryChoices(pkg, candidates) : {};
  const prefilled = Object.keys(previous).length > 0;
  const pick = (role: Role) => chosen[role] ?? previous[role] ?? '';
  const complete = roles.every((r) => pick(r)) && (!withSigner || signer !== '');
  const ready = Boolean(candidates) && warnings.length === 0 && complete && !busy;

  /** Sends the choice; a delivery with the signer's password. Answers the words of a wrong password. */
  const notify = async (proof?: SignatureProof): Promise<string | null> => {
    setBusy(true);
    setFailure(null);
    const body = {
      approvers: roles.map((role) => ({ role, id: pick(role) })),
      ...(withSigner ? { signer } : {}),
      ...proof,
    };
    const result = await notifyApprovers(pkg.id, body, delivery);
    setBusy(false);
    if (!result.ok && result.status === 403 && isWrongPassword(result.error))
      return result.error.errorMessage;
    setSigning(false);
    if (result.ok) {
      showSuccess(MSG.notified, { to: paths.home });
      return null;
    }
    if (result.status === 400) setFailure(result.error.errorMessage);
    else showRefusal(result.status, result.error.errorMessage, { to: paths.home });
    return null;
  };

  const send = () => {
    if (!ready) return;
    if (delivery) setSigning(true);
    else void notify();
  };

  const title = subHeader || (delivery ? MSG.generateDeliveryPackageTitle : creationTitle(pkg.resourceStage));

  return (
    <PackagePage id="notify-title" title={title}>
      {delivery ? null : <CreationSteps current={4} />}
      <PackageStrip pkg={pkg} />
      {warnings.map((w) => (
        <Alert key={w} variation="warning" marginBottom="1rem" role="alert">
          {w}
        </Alert>
      ))}
      {failure ? (
        <Alert variation="error" heading="Nobody was notified" marginBottom="1rem" role="alert">
          {failure}
        </Alert>
      ) : null}
      <PackageSection id="notify-approvers" title={delivery ? 'Delivery approvers' : 'Approvers'}>
        <p className="frp-muted" style={{ marginTop: 0 }}>
          Choose one approver for each role.{' '}
          {delivery
            ? `They approve delivering this package to devices. Neither the initiator (${pkg.initiator.name}) nor you can approve the delivery.`
            : `The initiator (${pkg.initiator.name}) cannot approve.`}
        </p>
        {candidates?.uploader && candidates.uploader.id !== pkg.initiator.id ? (
          <p className="frp-muted" role="note" aria-label="Uploader">
            {PACKAGE_ERR.uploaderReviews(candidates.uploader.name)}: they are not offered as{' '}
            {delivery ? 'a delivery approver' : withSigner ? 'an approver or signer' : 'an approver'}.
          </p>
        ) : null}
        {prefilled ? (
          <p className="frp-muted" role="note">
            Filled in with the delivery approvers of the previous delivery; change any of them before you
            notify.
          </p>
        ) : null}
        {query.loading ? <p className="frp-muted">Loading the users who can approve…</p> : null}
        <Flex direction="column" gap="1rem" maxWidth="32rem">
          {roles.map((role) => (
            <UserSelect
              key={role}
              label={roleLabel(role)}
              placeholder={`Choose a ${roleLabel(role)}`}
              value={pick(role)}
              onChange={(id) => setChosen((c) => ({ ...c, [role]: id }))}
              users={candidates?.approvers[role] ?? []}
            />
          ))}
        </Flex>
      </PackageSection>
      {withSigner ? (
        <PackageSection id="notify-signer" title="Signature">
          <Flex direction="column" gap="1rem" maxWidth="32rem">
            <UserSelect
              label="Signer"
              descriptiveText={`A ${roleLabel(APPROVAL_POLICY.signer.role)} signs the package once every approver has approved.`}
              placeholder="Choose a signer"
              value={signer}
              onChange={setSigner}
              isDisabled={(candidates?.signers.length ?? 0) === 0}
              users={candidates?.signers ?? []}
            />
          </Flex>
        </PackageSection>
      ) : null}
      <div className="frp-actions">
        {!complete && candidates && warnings.length === 0 ? (
          <span className="frp-muted" role="status">
            {withSigner
              ? 'Choose an approver for every role and a signer.'
              : 'Choose an approver for every role.'}
          </span>
        ) : null}
        <span className="frp-actions__spacer" />
        <StepButtons
          back={{ label: MSG.back, to: delivery ? paths.packages.headerView : paths.packages.dcc }}
          action={{ label: MSG.notify, busyLabel: 'Sending…', disabled: !ready, onClick: send }}
          busy={busy}
        />
      </div>
      {signing ? (
        <SignatureDialog
          pkg={pkg}
          action={pkg.status === 'DELIVERY_REJECTED' ? 'redeliver' : 'deliver'}
          onCancel={() => setSigning(false)}
          onSubmit={(proof) => notify(proof)}
        />
      ) : null}
    </PackagePage>
  );
}
