import { Flex, TextField } from '@aws-amplify/ui-react';
import { isRole, type NonAdminRole, type Role, roleLabel } from '@shared/domain/roles';
import { API_ERR, MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { NameAndEmailFields, RoleField } from '@/components/ui/account-fields';
import { FormAlert, SubmitRow } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { showSuccess } from '@/lib/popup/popup-store';
import { parseUser } from '@/lib/session/parse-user';
import { type SessionUser, session } from '@/lib/session/session-store';
import { isEmail } from '@/utils/validation';
import { updateAccount } from '../api/settings-api';

interface Errors {
  name?: string;
  email?: string;
  role?: string;
  form?: string;
}

/**
 * Spec §2.10 'Change user info' and §5: saved only if something changed; admin cannot be chosen. Beyond the spec:
 * a new email waits for its confirmation link, a new role for an admin; an admin's own role is fixed.
 */
export function UserInfoForm({ user }: { user: SessionUser }) {
  const isAdmin = user.userRole === 'ADMIN';
  const startRole: NonAdminRole =
    isRole(user.userRole) && user.userRole !== 'ADMIN' ? user.userRole : 'TECHNICAL_LEADER';
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  // an account made by a first company sign-in has no role yet (decision 316): the person picks one
  const [userRole, setUserRole] = useState<NonAdminRole | ''>(
    user.roleStatus === 'NONE' && !isAdmin ? '' : startRole,
  );
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  // an account made by a first company sign-in has no role yet: saving the chosen one is its request
  const noRoleYet = user.roleStatus === 'NONE' && !isAdmin;
  const changed =
    noRoleYet ||
    name.trim() !== user.name ||
    email.trim().toLowerCase() !== user.email.toLowerCase() ||
    (!isAdmin && userRole !== user.userRole);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !changed) return;
    const found: Errors = {};
    if (name.trim() === '') found.name = MSG.registerNameRequired;
    if (!isEmail(email)) found.email = MSG.registerEmailRequired;
    if (!isAdmin && userRole === '') found.role = 'Choose the role you work in';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const role: Role = isAdmin || userRole === '' ? 'ADMIN' : userRole;
    const result = await updateAccount({ name: name.trim(), email: email.trim(), userRole: role });
    setBusy(false);
    if (result.ok) {
      const updated = parseUser(result.data.user);
      if (updated) session.update({ user: updated });
      // the spec's text first; what the portal adds (confirmation links, role requests) follows it
      const notes = [
        updated?.pendingEmail && updated.pendingEmail !== user.pendingEmail
          ? `We sent a confirmation link to ${updated.pendingEmail}. Until you open it, sign in with ${updated.email}.`
          : '',
        updated?.roleStatus === 'REQUESTED' && (updated.userRole !== user.userRole || noRoleYet)
          ? `Your role ${roleLabel(updated.userRole)} waits for an administrator's approval.`
          : '',
        updated?.roleStatus === 'REQUESTED' && noRoleYet
          ? 'Two administrators must grant it: one proposes, a second confirms.'
          : '',
      ].filter(Boolean);
      showSuccess([MSG.settingsSaved, ...notes].join(' '), { to: isAdmin ? paths.admin.home : paths.home });
      return;
    }
    if (result.status === 409) setErrors({ email: MSG.registerConflict });
    else setErrors({ form: result.error.errorMessage });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={MSG.changeUserInfo}>
      <Flex direction="column" gap="1rem">
        <NameAndEmailFields name={name} email={email} onName={setName} onEmail={setEmail} errors={errors} />
        {isAdmin ? (
          <TextField
            className="frp-readonly-field"
            label="User role"
            name="userRole"
            value={roleLabel('ADMIN')}
            isReadOnly
            descriptiveText={API_ERR.ownRoleUnchangeable}
          />
        ) : (
          <RoleField
            value={userRole}
            onChange={setUserRole}
            placeholder={noRoleYet ? 'Choose your role' : undefined}
            hasError={errors.role !== undefined}
            errorMessage={errors.role}
          />
        )}
        <FormAlert
          variation="info"
          message={
            user.roleStatus && user.roleStatus !== 'GRANTED' && !isAdmin
              ? noRoleYet
                ? null // the page's banner asks for the role
                : user.roleStatus === 'REFUSED'
                  ? `An administrator refused your role ${roleLabel(user.userRole)}.`
                  : `Your role ${roleLabel(user.userRole)} waits for an administrator's approval.`
              : null
          }
        />
        <FormAlert
          variation="info"
          message={
            user.pendingEmail
              ? `${user.pendingEmail} waits for its confirmation link; until then you sign in with ${user.email}.`
              : null
          }
        />
        <FormAlert message={errors.form} />
        <SubmitRow action={{ label: MSG.save, busyLabel: 'Saving…', disabled: !changed }} busy={busy} />
      </Flex>
    </form>
  );
}
