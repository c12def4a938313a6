import { Button } from '@aws-amplify/ui-react';
import { CompanyReauthButton } from '@/components/ui/company-reauth';

/**
 * The proofs of a signature besides the password (decisions 322, 368): the passkey (with a Cancel that
 * closes the browser's prompt at once and returns to the choice) and a fresh sign-in at the company, for a
 * person whose account a company identity signs in as. Each row says what will happen before it is used.
 */
export function SignatureAlternatives({
  label,
  passkey,
  companyName,
  primary,
  busy,
  waitingForPasskey,
  disabled,
  onPasskey,
  onCancelPasskey,
  onTicket,
  onError,
  onCompanyStart,
}: {
  /** the action's label: "Approve with a passkey", "Approve: sign in again at <company>" */
  label: string;
  /** whether the signer holds a passkey */
  passkey: boolean;
  /** the company whose fresh sign-in confirms, or null where it does not */
  companyName: string | null;
  /** no password field: these are the dialog's main actions */
  primary: boolean;
  busy: boolean;
  waitingForPasskey: boolean;
  /** a required reason is missing */
  disabled: boolean;
  onPasskey: () => void;
  onCancelPasskey: () => void;
  onTicket: (reauthTicket: string) => void;
  onError: (message: string) => void;
  onCompanyStart: () => void;
}) {
  return (
    <>
      {passkey ? (
        <div className="frp-sig__passkey">
          <Button
            variation={primary ? 'primary' : undefined}
            onClick={onPasskey}
            isDisabled={busy || disabled}
            isLoading={waitingForPasskey}
            loadingText="Waiting for your passkey…"
          >
            {label} with a passkey
          </Button>
          {waitingForPasskey ? (
            <Button size="small" variation="link" onClick={onCancelPasskey}>
              Cancel the passkey prompt
            </Button>
          ) : (
            <span className="frp-muted">Your authenticator asks for your PIN, fingerprint or face.</span>
          )}
        </div>
      ) : null}
      {companyName ? (
        <div className="frp-sig__passkey">
          <CompanyReauthButton
            companyName={companyName}
            label={`${label}: sign in again at ${companyName}`}
            variation={primary && !passkey ? 'primary' : undefined}
            isDisabled={busy || disabled}
            onTicket={onTicket}
            onError={onError}
            onStart={onCompanyStart}
          />
          <span className="frp-muted">
            {`A window of ${companyName} asks you to sign in there again; this signature is sent once it confirms.`}
          </span>
        </div>
      ) : null}
    </>
  );
}
