import {
  Button,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  VisuallyHidden,
} from '@aws-amplify/ui-react';
import type { PasskeyView } from '@shared/api/contracts/passkeys';

const when = (iso?: string) =>
  iso ? `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'never';

/** The caller's passkeys: name, when added, last use, and Rename / Remove. */
export function PasskeyTable({
  passkeys,
  firstFactor = 'your password',
  onRename,
  onRemove,
}: {
  /** null while the list loads */
  passkeys: PasskeyView[] | null;
  /** what signing in asks first: "your password", or a company's sign-in for an account without one */
  firstFactor?: string;
  onRename: (p: PasskeyView) => void;
  onRemove: (p: PasskeyView) => void;
}) {
  return (
    <Table caption="Your passkeys" size="small" marginTop="1rem" highlightOnHover>
      <TableHead>
        <TableRow>
          <TableCell as="th">Name</TableCell>
          <TableCell as="th">Added</TableCell>
          <TableCell as="th">Last used</TableCell>
          <TableCell as="th">Kind</TableCell>
          <TableCell as="th">
            <VisuallyHidden>Actions</VisuallyHidden>
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {(passkeys ?? []).map((p) => (
          <TableRow key={p.id}>
            <TableCell>{p.name}</TableCell>
            <TableCell>{when(p.createdAt)}</TableCell>
            <TableCell>{when(p.lastUsedAt)}</TableCell>
            <TableCell>
              {p.deviceType === 'multiDevice' ? 'synced passkey' : 'this device or key only'}
            </TableCell>
            <TableCell>
              <Button
                size="small"
                aria-label={`Rename ${p.name}`}
                onClick={() => onRename(p)}
                marginRight="0.5rem"
              >
                Rename
              </Button>
              <Button
                size="small"
                variation="warning"
                aria-label={`Remove ${p.name}`}
                onClick={() => onRemove(p)}
              >
                Remove
              </Button>
            </TableCell>
          </TableRow>
        ))}
        {passkeys && passkeys.length === 0 ? (
          <TableRow>
            <TableCell colSpan={5}>{`No passkeys yet: signing in needs only ${firstFactor}.`}</TableCell>
          </TableRow>
        ) : null}
      </TableBody>
    </Table>
  );
}
