import {
  Button,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Text,
  VisuallyHidden,
} from '@aws-amplify/ui-react';
import type { AccessTokenView } from '@shared/domain/access-tokens';

const day = (iso?: string) => (iso ? new Date(iso).toISOString().slice(0, 16).replace('T', ' ') : '—');

/**
 * The state of a token; an ENDED one says why, for good (decision 334): "ended: the owner's role changed on
 * …". The owner cannot bring it back; they make a new token once they hold their role again.
 */
function TokenState({ token }: { token: AccessTokenView }) {
  if (token.state !== 'ENDED' || !token.ended) return <>{token.state}</>;
  return (
    <>
      <Text as="span" fontWeight="bold">
        ENDED
      </Text>
      <Text as="span" display="block" fontSize="small" color="font.secondary" maxWidth="22rem">
        {`ended: ${token.ended.text}`}
      </Text>
    </>
  );
}

/** The access tokens a person may see (an admin: every one, with its owner), each active one with Revoke. */
export function AccessTokenTable({
  tokens,
  admin,
  onRevoke,
}: {
  /** null while the list loads */
  tokens: AccessTokenView[] | null;
  admin: boolean;
  onRevoke: (token: AccessTokenView) => void;
}) {
  return (
    <Table
      caption={admin ? 'Every access token' : 'Your access tokens'}
      size="small"
      marginTop="1rem"
      highlightOnHover
    >
      <TableHead>
        <TableRow>
          <TableCell as="th">Name</TableCell>
          {admin ? <TableCell as="th">Owner</TableCell> : null}
          <TableCell as="th">Scopes</TableCell>
          <TableCell as="th">Created</TableCell>
          <TableCell as="th">Last used</TableCell>
          <TableCell as="th">Expires</TableCell>
          <TableCell as="th">State</TableCell>
          <TableCell as="th">
            <VisuallyHidden>Action</VisuallyHidden>
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {(tokens ?? []).map((t) => (
          <TableRow key={t.id} data-token-id={t.id}>
            <TableCell>{t.name}</TableCell>
            {admin ? <TableCell>{`${t.owner.name} <${t.owner.email}>`}</TableCell> : null}
            <TableCell>{t.scopes.join(', ')}</TableCell>
            <TableCell>{day(t.createdAt)}</TableCell>
            <TableCell>{day(t.lastUsedAt)}</TableCell>
            <TableCell>{day(t.expiresAt)}</TableCell>
            <TableCell>
              <TokenState token={t} />
            </TableCell>
            <TableCell>
              {t.state === 'ACTIVE' ? (
                <Button
                  size="small"
                  variation="warning"
                  aria-label={`Revoke ${t.name}`}
                  onClick={() => onRevoke(t)}
                >
                  Revoke
                </Button>
              ) : null}
            </TableCell>
          </TableRow>
        ))}
        {tokens && tokens.length === 0 ? (
          <TableRow>
            <TableCell colSpan={admin ? 8 : 7}>No access tokens yet</TableCell>
          </TableRow>
        ) : null}
      </TableBody>
    </Table>
  );
}
