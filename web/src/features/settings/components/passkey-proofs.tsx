import { Button, Flex, Text } from '@aws-amplify/ui-react';
import type { SignatureProof } from '@shared/api/contracts/packages';
import { useState } from 'react';
import { CompanyReauthButton } from '@/components/ui/company-reauth';
import { passkeySignature } from '@/lib/passkeys/passkey-api';

/**
 * The proofs of a change of one's own passkeys besides the password (decision 368): a fresh sign-in at the
 * company (for an account a company identity signs in as) or a passkey the account already holds. The
 * server takes each where it takes the password (confirmIdentity); a person without a portal password has
 * only these.
 */
export function OtherProofs({
  company,
  passkey,
  disabled,
  intro,
  primary = false,
  onProof,
  onError,
}: {
  /** no password field: these are the form's main actions */
  primary?: boolean;
  company: string | null;
  passkey: boolean;
  disabled: boolean;
  /** what stands before the buttons, e.g. "Or confirm with:" */
  intro: string;
  onProof: (proof: SignatureProof) => void;
  onError: (message: string) => void;
}) {
  const [waiting, setWaiting] = useState(false);
  if (!company && !passkey) return null;
  const withPasskey = async () => {
    setWaiting(true);
    const p = await passkeySignature();
    setWaiting(false);
    if (p.ok) onProof({ passkey: p.passkey });
    else onError(p.message);
  };
  return (
    <Flex direction="column" gap="0.5rem">
      <Text className="frp-muted">{intro}</Text>
      <Flex gap="0.75rem" wrap="wrap">
        {company ? (
          <CompanyReauthButton
            companyName={company}
            isDisabled={disabled || waiting}
            variation={primary ? 'primary' : undefined}
            onTicket={(reauthTicket) => onProof({ reauthTicket })}
            onError={onError}
          />
        ) : null}
        {passkey ? (
          <Button
            onClick={() => void withPasskey()}
            isDisabled={disabled}
            isLoading={waiting}
            loadingText="Waiting for your passkey…"
          >
            A passkey you already have
          </Button>
        ) : null}
      </Flex>
    </Flex>
  );
}
