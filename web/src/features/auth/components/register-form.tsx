import { PASSWORD_MAX, PASSWORD_MIN, passwordPolicyMessage } from '@shared/api/contracts/user';
import { type NonAdminRole, SELF_SERVICE_ROLES } from '@shared/domain/roles';
import { MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { NameAndEmailFields, RoleField } from '@/components/ui/account-fields';
import { SecretField } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { showSuccess } from '@/lib/popup/popup-store';
import { isEmail } from '@/utils/validation';
import { register } from '../api/auth-api';
import { AuthFormCard } from './auth-form-card';

interface Errors {
  name?: string;
  email?: string;
  password?: string;
  repeat?: string;
  form?: string;
}

/** Spec §2.1 /register and the registration rules of §5. The admin role is not offered. */
export function RegisterForm() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [userRole, setUserRole] = useState<NonAdminRole>(SELF_SERVICE_ROLES[0]!);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const validate = (): Errors => {
    const found: Errors = {};
    if (name.trim() === '') found.name = MSG.registerNameRequired;
    if (!isEmail(email)) found.email = MSG.registerEmailRequired;
    if (password === '') found.password = MSG.registerPasswordRequired;
    else if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
      found.password = passwordPolicyMessage;
    if (repeat !== password) found.repeat = MSG.registerPasswordsDiffer;
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const result = await register({ name: name.trim(), email: email.trim(), password, userRole });
    setBusy(false);
    if (result.ok) {
      // the spec's text, then what the portal adds: the address must be confirmed before signing in
      showSuccess(
        `${MSG.registered} We sent a confirmation link to ${email.trim()}: open it before you sign in. Your role waits for an administrator's approval.`,
        { buttonLabel: MSG.toLoginPage, to: paths.login },
      );
      return;
    }
    if (result.status === 409) setErrors({ email: MSG.registerConflict });
    else setErrors({ form: result.error.errorMessage });
  };

  return (
    <AuthFormCard
      title="Create an account"
      onSubmit={submit}
      failure={errors.form}
      footer={{
        to: paths.login,
        link: 'Already registered? Sign in',
        action: { label: MSG.submit, busyLabel: 'Registering…' },
      }}
      busy={busy}
    >
      <NameAndEmailFields name={name} email={email} onName={setName} onEmail={setEmail} errors={errors} />
      <SecretField
        label="Password"
        name="password"
        autoComplete="new-password"
        hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters`}
        value={password}
        onChange={setPassword}
        hasError={Boolean(errors.password)}
        errorMessage={errors.password}
      />
      <SecretField
        label="Repeat password"
        name="repeat-password"
        autoComplete="new-password"
        value={repeat}
        onChange={setRepeat}
        hasError={Boolean(errors.repeat)}
        errorMessage={errors.repeat}
      />
      <RoleField value={userRole} onChange={setUserRole} />
    </AuthFormCard>
  );
}
