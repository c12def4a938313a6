import { Alert, Button, CheckboxField, Flex, Heading, Text, TextField } from '@aws-amplify/ui-react';
import type { PublicUser } from '@shared/api/contracts/user';
import {
  ACCESS_TOKEN_MAX_DAYS,
  ACCESS_TOKEN_SCOPES,
  type AccessTokenScope,
  type AccessTokenView,
  SCOPE_LABELS,
  SCOPE_ROLES,
} from '@shared/domain/access-tokens';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { FormAlert } from '@/components/ui/form-parts';
import { createAccessToken, listAccessTokens, revokeAccessToken } from '../api/access-tokens-api';
import { AccessTokenTable } from './access-token-table';

/**
 * Settings → Access tokens: a granted person makes a token for a build pipeline (name, expiry
 * of at most 90 days, scopes), sees its secret once, lists and revokes their tokens; an admin sees and
 * revokes every token. Tokens never approve, sign, deliver or notify: a person must.
 */
export function AccessTokens({ user }: { user: PublicUser }) {
  const admin = user.userRole === 'ADMIN';
  const allowed = ACCESS_TOKEN_SCOPES.filter((s) => SCOPE_ROLES[s].includes(user.userRole));
  const [tokens, setTokens] = useState<AccessTokenView[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [days, setDays] = useState('30');
  const [scopes, setScopes] = useState<AccessTokenScope[]>(allowed);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    const r = await listAccessTokens();
    if (r.ok) {
      setTokens(r.data.accessTokens);
      setListError(null);
    } else setListError(r.error.errorMessage);
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const r = await createAccessToken({ name, expiresInDays: Number(days), scopes });
    setBusy(false);
    if (!r.ok) return setError(r.error.errorMessage);
    setError(null);
    setSecret({ name: r.data.accessToken.name, token: r.data.token });
    setName('');
    await reload();
  };

  const revoke = async (t: AccessTokenView) => {
    const r = await revokeAccessToken(t.id);
    if (!r.ok) setListError(r.error.errorMessage);
    await reload();
  };

  return (
    <section aria-labelledby="access-tokens-title" className="frp-access-tokens">
      <Heading level={2} id="access-tokens-title" marginBottom="0.5rem" fontSize="1.125rem" fontWeight="600">
        Access tokens
      </Heading>
      <Text marginBottom="1rem">
        A build pipeline signs in with an access token: it uploads resources and creates draft packages as
        you, within the token's scopes. It can never approve, reject, sign, deliver or notify: a person must.
      </Text>
      {allowed.length > 0 ? (
        <form onSubmit={create} noValidate aria-label="New access token">
          <Flex direction="column" gap="0.75rem">
            <TextField
              label="Token name"
              name="tokenName"
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
              }}
              descriptiveText="Say where it is used, e.g. the CI job"
            />
            <TextField
              label="Expires in (days)"
              name="expiresInDays"
              type="number"
              min={1}
              max={ACCESS_TOKEN_MAX_DAYS}
              value={days}
              onChange={(e) => setDays(e.target.value)}
              descriptiveText={`At most ${ACCESS_TOKEN_MAX_DAYS} days`}
            />
            <fieldset className="frp-scopes">
              <legend>Scopes</legend>
              {allowed.map((s) => (
                <CheckboxField
                  key={s}
                  name={s}
                  value={s}
                  label={`${s}: ${SCOPE_LABELS[s]}`}
                  checked={scopes.includes(s)}
                  onChange={(e) =>
                    setScopes((all) => (e.target.checked ? [...all, s] : all.filter((x) => x !== s)))
                  }
                />
              ))}
            </fieldset>
            <FormAlert message={error} />
            <Flex>
              <Button type="submit" variation="primary" isLoading={busy} loadingText="Creating…">
                Create token
              </Button>
            </Flex>
          </Flex>
        </form>
      ) : null}
      {secret ? (
        <Alert variation="success" role="status" marginTop="1rem" heading={`Token '${secret.name}' created`}>
          Copy it now: it is shown only once.
          <TextField
            label="Access token"
            name="newAccessToken"
            value={secret.token}
            isReadOnly
            onFocus={(e) => e.target.select()}
            marginTop="0.5rem"
          />
        </Alert>
      ) : null}
      <FormAlert message={listError} />
      <AccessTokenTable tokens={tokens} admin={admin} onRevoke={(t) => void revoke(t)} />
    </section>
  );
}
