import { Alert, Button, Flex, Heading, PasswordField } from '@aws-amplify/ui-react';
import { PASSWORD_MAX, PASSWORD_MIN, passwordPolicyMessage } from '@shared/api/contracts/user';
import { type NonAdminRole, SELF_SERVICE_ROLES } from '@shared/domain/roles';
import { MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { NameAndEmailFields, RoleField } from '@/components/ui/account-fields';
import { paths } from '@/config/paths';
import { showSuccess } from '@/lib/popup/popup-store';
import { isEmail } from '@/utils/validation';
import { register } from '../api/auth-api';

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
      // the spec's text, then what issue 12 adds: the address must be confirmed before signing in
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
    <div className="frp-card frp-form-card">
      <Heading level={1} className="frp-page-title">
        Create an account
      </Heading>
      <form onSubmit={submit} noValidate>
        <Flex direction="column" gap="1rem">
          <NameAndEmailFields name={name} email={email} onName={setName} onEmail={setEmail} errors={errors} />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="new-password"
            descriptiveText={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            hasError={Boolean(errors.password)}
            errorMessage={errors.password}
            isRequired
          />
          <PasswordField
            label="Repeat password"
            name="repeat-password"
            autoComplete="new-password"
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            hasError={Boolean(errors.repeat)}
            errorMessage={errors.repeat}
            isRequired
          />
          <RoleField value={userRole} onChange={setUserRole} />
          {errors.form ? (
            <Alert variation="error" role="alert">
              {errors.form}
            </Alert>
          ) : null}
          <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="0.75rem">
            <Link to={paths.login}>Already registered? Sign in</Link>
            <Button type="submit" variation="primary" isLoading={busy} loadingText="Registering…">
              {MSG.submit}
            </Button>
          </Flex>
        </Flex>
      </form>
    </div>
  );
}
