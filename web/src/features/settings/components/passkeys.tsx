import { Alert, Button, Flex, Heading, PasswordField, Text, TextField } from '@aws-amplify/ui-react';
import type { SignatureProof } from '@shared/api/contracts/packages';
import type { PasskeyView } from '@shared/api/contracts/passkeys';
import { PASSKEY_TEXT } from '@shared/domain/passkeys';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { FormAlert } from '@/components/ui/form-parts';
import { useCompanyName } from '@/lib/company-sign-on/company-sign-on-info';
import { promptNewPasskey } from '@/lib/passkeys/passkey-browser';
import { useSession } from '@/lib/session/session-store';
import { setToken } from '@/lib/session/token-cookie';
import {
  addPasskey,
  listPasskeys,
  registrationOptions,
  removePasskey,
  renamePasskey,
} from '../api/passkeys-api';
import { OtherProofs } from './passkey-proofs';
import { PasskeyTable } from './passkey-table';

type Status = { passkeys: PasskeyView[]; requiredForSignatures: boolean };

/**
 * Settings → Passkeys (decision 322): add a passkey (the password, a fresh company sign-in or a passkey
 * already held confirms it, decision 368; then the browser creates the credential), name it, see when each
 * was last used, rename or remove one (confirmed the same way; the account's other sessions end). With a
 * passkey, every sign-in asks for it after the first factor, and the signature dialog accepts it.
 */
export function Passkeys() {
  const { user } = useSession();
  const stageCompany = useCompanyName();
  // an account made by a company sign-in has no password to confirm with (decision 317)
  const hasPassword = !user?.passwordless;
  const company = user?.companyLinked && stageCompany ? stageCompany : null;
  // what a sign-in asks first: the password, or (without one) the company's sign-in
  const firstFactor = hasPassword ? 'your password' : `your ${company ?? 'company'} sign-in`;
  const [status, setStatus] = useState<Status | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const [renaming, setRenaming] = useState<{ p: PasskeyView; name: string } | null>(null);

  const reload = useCallback(async () => {
    const r = await listPasskeys();
    if (r.ok) {
      setStatus(r.data);
      setListError(null);
    } else setListError(r.error.errorMessage);
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (password === '') {
      setDone(null);
      return setError('Enter your password: it confirms that you add this passkey');
    }
    void addWith({ password });
  };

  /** The proof confirms, then the browser creates the credential, then the server keeps it under its name. */
  const addWith = async (proof: SignatureProof) => {
    if (busy) return;
    setError(null);
    setDone(null);
    if (name.trim() === '') return setError('Give the passkey a name, e.g. "Work laptop"');
    setBusy(true);
    const start = await registrationOptions(proof);
    if (!start.ok) {
      setBusy(false);
      setPassword('');
      return setError(start.error.errorMessage);
    }
    const created = await promptNewPasskey(start.data.publicKey);
    const saved = created.ok ? await addPasskey(start.data.ceremonyId, name.trim(), created.response) : null;
    setBusy(false);
    setPassword('');
    if (!created.ok) return setError(created.message);
    if (saved && !saved.ok) return setError(saved.error.errorMessage);
    setDone(`Passkey "${name.trim()}" added. From now on, signing in asks for it after ${firstFactor}.`);
    setName('');
    await reload();
  };

  const remove = (event: FormEvent) => {
    event.preventDefault();
    void removeWith({ password });
  };
  const removeWith = async (proof: SignatureProof) => {
    if (!removing || busy) return;
    setBusy(true);
    const r = await removePasskey(removing.id, proof);
    setBusy(false);
    setPassword('');
    if (!r.ok) return setError(r.error.errorMessage);
    setToken(r.data.token);
    setDone(`Passkey "${removing.name}" removed. ${r.data.message}`);
    setRemoving(null);
    setError(null);
    await reload();
  };

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (!renaming || busy) return;
    setBusy(true);
    const r = await renamePasskey(renaming.p.id, renaming.name);
    setBusy(false);
    if (!r.ok) return setError(r.error.errorMessage);
    setRenaming(null);
    setError(null);
    await reload();
  };

  const none = status !== null && status.passkeys.length === 0;
  return (
    <section id="passkeys" aria-labelledby="passkeys-heading">
      <Heading level={2} id="passkeys-heading" marginBottom="0.5rem" fontSize="1.125rem" fontWeight="600">
        Passkeys
      </Heading>
      <Text className="frp-muted" marginBottom="0.75rem">
        A passkey is a second factor kept by your device or security key. Once you have one, signing in asks
        for it after {firstFactor}, and you can sign decisions with it (your PIN, fingerprint or face confirms
        the signature).
      </Text>
      {status?.requiredForSignatures && none ? (
        <Alert variation="warning" role="status" heading="Your role signs with a passkey" marginBottom="1rem">
          {PASSKEY_TEXT.requiredForSignature}
        </Alert>
      ) : null}
      {done ? (
        <Alert variation="success" role="status" marginBottom="1rem">
          {done}
        </Alert>
      ) : null}
      <FormAlert message={listError} />
      <PasskeyTable
        passkeys={status?.passkeys ?? null}
        firstFactor={firstFactor}
        onRename={(p) => {
          setRemoving(null);
          setRenaming({ p, name: p.name });
        }}
        onRemove={(p) => {
          setRenaming(null);
          setRemoving(p);
          setPassword('');
        }}
      />
      {renaming ? (
        <form onSubmit={rename} noValidate aria-label={`Rename ${renaming.p.name}`}>
          <Flex alignItems="flex-end" gap="0.75rem" marginTop="1rem" wrap="wrap">
            <TextField
              label="New name"
              value={renaming.name}
              maxLength={60}
              onChange={(e) => setRenaming({ ...renaming, name: e.target.value })}
            />
            <Button type="submit" variation="primary" isLoading={busy}>
              Save name
            </Button>
            <Button onClick={() => setRenaming(null)}>Cancel</Button>
          </Flex>
        </form>
      ) : null}
      {removing ? (
        <form onSubmit={remove} noValidate aria-label={`Remove ${removing.name}`}>
          <Alert variation="warning" marginTop="1rem">
            Removing "{removing.name}" ends your other sessions.{' '}
            {hasPassword ? 'Enter your password to confirm.' : 'Confirm it below.'}
          </Alert>
          <Flex alignItems="flex-end" gap="0.75rem" marginTop="0.75rem" wrap="wrap">
            {hasPassword ? (
              <>
                <PasswordField
                  label="Your password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
                <Button type="submit" variation="destructive" isLoading={busy} isDisabled={password === ''}>
                  Remove passkey
                </Button>
              </>
            ) : null}
            <Button onClick={() => setRemoving(null)}>Cancel</Button>
          </Flex>
          <OtherProofs
            company={company}
            passkey={(status?.passkeys.length ?? 0) > 0}
            disabled={busy}
            intro={hasPassword ? 'Or confirm with:' : 'Confirm that you remove it with:'}
            onProof={(proof) => void removeWith(proof)}
            onError={setError}
          />
        </form>
      ) : null}
      {!removing && !renaming ? (
        <form onSubmit={add} noValidate aria-label="Add a passkey">
          <Heading level={3} marginTop="1.5rem" marginBottom="0.5rem" fontSize="1rem" fontWeight="600">
            Add a passkey
          </Heading>
          <Flex direction="column" gap="0.75rem" maxWidth="28rem">
            <TextField
              label="Name"
              descriptiveText="So you recognise it later, e.g. Work laptop or YubiKey"
              value={name}
              maxLength={60}
              onChange={(e) => setName(e.target.value)}
            />
            {hasPassword ? (
              <>
                <PasswordField
                  label="Your password"
                  descriptiveText="Confirms that you are the one adding a way to sign in"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
                <Flex>
                  <Button
                    type="submit"
                    variation="primary"
                    isLoading={busy}
                    loadingText="Waiting for your passkey…"
                  >
                    Add a passkey
                  </Button>
                </Flex>
              </>
            ) : null}
            <OtherProofs
              company={company}
              passkey={(status?.passkeys.length ?? 0) > 0}
              // the name first: a company window or a passkey prompt is not opened for a form that will refuse
              disabled={busy || name.trim() === ''}
              primary={!hasPassword}
              intro={
                hasPassword
                  ? 'Or confirm with:'
                  : 'Give it a name, then confirm that you are the one adding it with:'
              }
              onProof={(proof) => void addWith(proof)}
              onError={setError}
            />
            <FormAlert message={error} />
          </Flex>
        </form>
      ) : (
        <FormAlert message={error} />
      )}
    </section>
  );
}
