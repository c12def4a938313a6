import { Alert, Button, Flex } from '@aws-amplify/ui-react';
import type { Package, SignatureProof } from '@shared/api/contracts/packages';
import { packageTypeLabel } from '@shared/domain/package-type-label';
import { PASSKEY_TEXT } from '@shared/domain/passkeys';
import { roleLabel } from '@shared/domain/roles';
import {
  SIGNATURE_ACTION_LABELS,
  type SignatureAction,
  signatureMeaning,
} from '@shared/domain/signature-meanings';
import { MSG } from '@shared/messages';
import { Fragment, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { dialogKeys } from '@/components/ui/dialog-keys';
import { SignaturePassword, SignatureReason } from '@/components/ui/signature-password';
import { SignatureAlternatives } from '@/components/ui/signature-proofs';
import { paths } from '@/config/paths';
import { useCompanyName } from '@/lib/company-sign-on/company-sign-on-info';
import { passkeySignature, passkeyStatus } from '@/lib/passkeys/passkey-api';
import { useSession } from '@/lib/session/session-store';
import './signature-dialog.css';
import { ModalDialog } from '@/components/ui/modal-dialog';

/**
 * What a submission answers: `null` when the call is settled (the caller closes the dialog and shows its
 * popup or page), or the server's words for a refused proof (403: a wrong password, a passkey that did not
 * verify, a spent company ticket), shown here with the dialog kept open. The proof is the password, a
 * passkey (decision 322) or a fresh company sign-in's ticket (decision 368).
 */
export type SignatureSubmit = (proof: SignatureProof, reason: string) => Promise<string | null>;

/** The caller's passkeys and the stage's rule, read when the dialog opens (undefined while loading). */
function usePasskeyStatus() {
  const [status, setStatus] = useState<Awaited<ReturnType<typeof passkeyStatus>> | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void passkeyStatus().then((s) => {
      if (live) setStatus(s);
    });
    return () => {
      live = false;
    };
  }, []);
  return status;
}

/**
 * A package decision, an admin's grant of roles (a proposal or a confirmation, signed), an admin's removal
 * of someone's lost passkey (decision 323: proposed, then confirmed, signed with a reason), or an admin's
 * deletion of packages people wait on (decision 196: signed with a reason).
 */
export type SignedAction = SignatureAction | AdminAction;

const ADMIN_ACTION_LABELS = {
  grantRoles: 'Grant',
  refuseRoles: 'Sign and refuse',
  removePasskey: 'Remove passkey',
  deletePackages: 'Sign and delete',
  // change of people (decision 351): the initiator's or an admin's, with a reason
  reassign: 'Sign and reassign',
  withdraw: 'Sign and withdraw',
} as const;
type AdminAction = keyof typeof ADMIN_ACTION_LABELS;
const isAdminAction = (a: SignedAction): a is AdminAction => a in ADMIN_ACTION_LABELS;

/** Actions that carry a reason (and look destructive): the rejections, a passkey removal, a deletion. */
const isReject = (a: SignedAction) =>
  a === 'reject' ||
  a === 'rejectSigning' ||
  a === 'rejectDelivery' ||
  a === 'removePasskey' ||
  a === 'refuseRoles' ||
  a === 'deletePackages' ||
  a === 'reassign' ||
  a === 'withdraw';

/** The reason field of an action that carries one: its label and what it says before the attempt. */
function reasonField(a: SignedAction): { label: string; description: string } {
  if (a === 'removePasskey')
    return {
      label: 'Why the passkey is removed',
      description: 'Required: the audit trail keeps it, and the second administrator reads it.',
    };
  if (a === 'refuseRoles')
    return {
      label: 'Reason for refusing or revoking',
      description: 'Required: the person reads it by mail; the audit trail keeps it.',
    };
  if (a === 'deletePackages')
    return {
      label: 'Reason for the deletion',
      description: 'Required: everyone told of the deletion reads it by mail; the audit trail keeps it.',
    };
  if (a === 'reassign' || a === 'withdraw')
    return {
      label: a === 'reassign' ? 'Why the place is reassigned' : 'Why the package is withdrawn',
      description: 'Required: the people affected read it by mail; the audit trail keeps it.',
    };
  return {
    label: 'Reason for the rejection',
    description: 'Required: the initiator reads it. Reject stays unavailable until you give one.',
  };
}

/**
 * The electronic signature of a decision (decision 141; 21 CFR Part 11 §11.50, §11.200): what is
 * signed (package, type, payload SHA-256 and, for a model, its metadata file's: decision 190), what the signature means, who signs (printed name and role), the
 * signer's password and, for a rejection, the reason. Cancel has the focus first; the action button is
 * active once the password (and the reason) is given.
 */
export function SignatureDialog({
  pkg,
  facts,
  meaning,
  action,
  onCancel,
  onSubmit,
  title,
  intro,
  actionLabel,
  changesSeen,
}: {
  /** what a package decision signs; or `facts`, for what is not a package (a grant: accounts and roles) */
  pkg?: Pick<Package, 'id' | 'name' | 'type' | 'resourceName' | 'resourceFile'> &
    Partial<Pick<Package, 'resourceType'>>;
  facts?: readonly { label: string; value: ReactNode }[];
  /** the meaning when it is not one of SIGNATURE_MEANINGS (a grant's, from shared/domain/role-grants) */
  meaning?: ReactNode;
  action: SignedAction;
  onCancel: () => void;
  onSubmit: SignatureSubmit;
  /** defaults: 'Sign: <action>'; a rejection passes the spec's 'Confirm Package Rejection' */
  title?: string;
  intro?: ReactNode;
  actionLabel?: string;
  /** the reviewer states having seen the changes since the last approved package (review pages) */
  changesSeen?: string;
}) {
  const { user } = useSession();
  const passkeys = usePasskeyStatus();
  const stageCompany = useCompanyName();
  const [password, setPassword] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [waitingForPasskey, setWaitingForPasskey] = useState(false);
  const passkeyPrompt = useRef<AbortController | null>(null);
  const [refusal, setRefusal] = useState<{ text: string; attempt: number } | null>(null);
  const titleId = useId();
  const meaningId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const rejecting = isReject(action);
  const hasPasskey = (passkeys?.passkeys.length ?? 0) > 0;
  // where the stage requires passkeys for this role, neither the password nor a company ticket signs
  // (decisions 322, 366)
  const notOnlyPasskeys = !passkeys?.requiredForSignatures;
  // an account made by a company sign-in has no password: the server would count one as a wrong password
  const passwordSigns = notOnlyPasskeys && !user?.passwordless;
  // a fresh sign-in at the company, for an account a company identity signs in as (decision 368)
  const company = notOnlyPasskeys && user?.companyLinked && stageCompany ? stageCompany : null;
  // (where passkeys are required, the alert below says how to add one instead)
  const noProof =
    notOnlyPasskeys &&
    passkeys !== undefined &&
    stageCompany !== undefined &&
    !passwordSigns &&
    !hasPasskey &&
    !company;
  const reasonGiven = !rejecting || reason.trim() !== '';
  const ready = passwordSigns && password !== '' && reasonGiven && !busy;

  useEffect(() => {
    cancelRef.current?.focus();
  }, []);
  // after a refused password (and once the field is enabled again): straight back to the password
  useEffect(() => {
    if (refusal) passwordRef.current?.focus();
  }, [refusal]);

  const settle = (refused: string | null) => {
    setBusy(false);
    if (refused !== null) {
      setRefusal((r) => ({ text: refused, attempt: (r?.attempt ?? 0) + 1 }));
      setPassword('');
    }
  };

  const submit = async () => {
    if (!ready) return;
    setBusy(true);
    setRefusal(null);
    settle(await onSubmit({ password }, reason.trim()));
  };

  /**
   * The passkey prompt of the browser (user verification), then the same call with the passkey. Cancelled
   * by the person: back to the choice, with nothing to report.
   */
  const signWithPasskey = async () => {
    if (busy || !reasonGiven) return;
    setBusy(true);
    setRefusal(null);
    const prompt = new AbortController();
    passkeyPrompt.current = prompt;
    setWaitingForPasskey(true);
    const p = await passkeySignature(prompt.signal);
    passkeyPrompt.current = null;
    setWaitingForPasskey(false);
    if (!p.ok && p.cancelled) return settle(null);
    settle(p.ok ? await onSubmit({ passkey: p.passkey }, reason.trim()) : p.message);
  };
  // a dialog closed under a prompt closes the prompt too
  useEffect(() => () => passkeyPrompt.current?.abort(), []);

  /** The ticket of a fresh company sign-in, handed back by its window: the same call with it. */
  const signWithTicket = async (reauthTicket: string) => {
    if (busy || !reasonGiven) return;
    setBusy(true);
    setRefusal(null);
    settle(await onSubmit({ reauthTicket }, reason.trim()));
  };
  const companyFailed = (message: string) =>
    setRefusal((r) => ({ text: message, attempt: (r?.attempt ?? 0) + 1 }));

  const onKeyDown = dialogKeys(dialogRef, {
    focusable: 'textarea, input, button:not([disabled])',
    busy,
    onCancel,
  });

  const label =
    actionLabel ?? (isAdminAction(action) ? ADMIN_ACTION_LABELS[action] : SIGNATURE_ACTION_LABELS[action]);
  const reasonText = reasonField(action);

  return (
    <ModalDialog
      dialogRef={dialogRef}
      className={`frp-dialog--signature${rejecting ? ' frp-dialog--reject' : ''}`}
      titleId={titleId}
      describedBy={meaningId}
      onKeyDown={onKeyDown}
      title={title ?? `Sign: ${label}`}
    >
      {intro ? <p className="frp-dialog__message frp-sig__intro">{intro}</p> : null}
      <dl className="frp-sig__facts" aria-label="What you sign">
        {pkg ? (
          <>
            <dt>Package</dt>
            <dd>{pkg.name}</dd>
            <dt>Package type</dt>
            <dd>
              {packageTypeLabel(pkg.type)} <span className="frp-mono">({pkg.type})</span>
            </dd>
            <dt>Payload SHA-256</dt>
            <dd className="frp-mono frp-sig__hash">
              {pkg.resourceFile?.sha256 || 'not recorded for this package'}
            </dd>
            {pkg.resourceType === 'MODEL' ? (
              <>
                <dt>Metadata SHA-256</dt>
                <dd className="frp-mono frp-sig__hash">
                  {pkg.resourceFile?.metadataSha256 || 'not recorded for this package'}
                </dd>
              </>
            ) : null}
          </>
        ) : null}
        {changesSeen ? (
          <>
            <dt>Changes seen</dt>
            <dd>{changesSeen}</dd>
          </>
        ) : null}
        {facts?.map((f) => (
          <Fragment key={f.label}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </Fragment>
        ))}
        <dt>Signed by</dt>
        <dd>{user ? `${user.name}, ${roleLabel(user.userRole)}` : 'unknown'}</dd>
      </dl>
      <div className="frp-sig__meaning">
        <span className="frp-sig__meaning-label">Meaning of your signature</span>
        {action === 'deletePackages' ? (
          <blockquote id={meaningId}>{meaning}</blockquote>
        ) : isAdminAction(action) ? (
          <div id={meaningId}>{meaning}</div>
        ) : (
          <blockquote id={meaningId}>{meaning ?? signatureMeaning(action, pkg?.type)}</blockquote>
        )}
        <span className="frp-muted frp-sig__note">
          Recorded with your name, role and the time (UTC) in the audit trail
          {action === 'approve' || action === 'sign' ? ' and in the package file' : ''}.
          {changesSeen ? ' The audit trail also keeps which comparison you saw.' : ''}
        </span>
      </div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {rejecting ? (
          <SignatureReason
            label={reasonText.label}
            // say before the attempt that the reason is required, not only by a disabled button
            descriptiveText={reasonText.description}
            rows={3}
            value={reason}
            onChange={setReason}
            busy={busy}
          />
        ) : null}
        {passkeys?.requiredForSignatures && !hasPasskey ? (
          <Alert variation="warning" role="alert" heading="A passkey is required to sign">
            {PASSKEY_TEXT.requiredForSignature}{' '}
            <Link to={`${user?.userRole === 'ADMIN' ? paths.admin.settings : paths.settings}?form=passkeys`}>
              Go to Settings → Passkeys
            </Link>
          </Alert>
        ) : null}
        {noProof ? (
          <Alert variation="warning" role="alert" heading="Nothing here can confirm your signature">
            Your account has no portal password, and neither a passkey nor a company sign-in is available to
            it on this portal. Ask an administrator.
          </Alert>
        ) : null}
        <SignatureAlternatives
          label={label}
          passkey={hasPasskey}
          companyName={company}
          primary={!passwordSigns}
          busy={busy}
          waitingForPasskey={waitingForPasskey}
          disabled={!reasonGiven}
          onPasskey={() => void signWithPasskey()}
          onCancelPasskey={() => passkeyPrompt.current?.abort()}
          onTicket={(t) => void signWithTicket(t)}
          onError={companyFailed}
          onCompanyStart={() => setRefusal(null)}
        />
        {passwordSigns ? (
          <SignaturePassword
            inputRef={passwordRef}
            name="signature-password"
            value={password}
            onChange={setPassword}
            busy={busy}
            refusal={refusal?.text ?? null}
            descriptiveText={
              hasPasskey || company
                ? 'Or the password you sign in with: any of these confirms this signature is yours.'
                : 'The password you sign in with: it confirms this signature is yours.'
            }
          />
        ) : refusal ? (
          <Alert variation="error" role="alert" marginTop="0.75rem">
            {refusal.text}
          </Alert>
        ) : null}
        <Flex justifyContent="flex-end" gap="0.75rem" marginTop="1.25rem">
          <Button ref={cancelRef} onClick={onCancel} isDisabled={busy}>
            {MSG.cancel}
          </Button>
          {passwordSigns ? (
            <Button
              type="submit"
              variation={rejecting ? 'destructive' : 'primary'}
              isDisabled={!ready}
              isLoading={busy}
            >
              {label}
            </Button>
          ) : null}
        </Flex>
      </form>
    </ModalDialog>
  );
}
