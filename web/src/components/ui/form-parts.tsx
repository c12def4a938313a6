import { Alert, Button, Flex, PasswordField, TextField } from '@aws-amplify/ui-react';
import type { FormEvent, ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';

/** The parts every form of the app repeats: its alert, its buttons, and the email and password fields. */

/** A form's message: an error alert (role alert) or an info/status line; nothing without a message. */
export function FormAlert({
  message,
  variation = 'error',
  heading,
}: {
  message: ReactNode | null | undefined;
  variation?: 'error' | 'info';
  /** what failed, above the server's reason */
  heading?: string;
}) {
  if (!message) return null;
  return (
    <Alert variation={variation} heading={heading} role={variation === 'error' ? 'alert' : 'status'}>
      {message}
    </Alert>
  );
}

/** The primary button of a form or step; it shows `busyLabel` while the call runs. */
export interface PrimaryAction {
  label: string;
  busyLabel: string;
  disabled?: boolean;
  /** a step's button; without it the button submits its form */
  onClick?: () => void;
}

export function PrimaryButton({ action, busy }: { action: PrimaryAction; busy: boolean }) {
  return (
    <Button
      type={action.onClick ? 'button' : 'submit'}
      variation="primary"
      onClick={action.onClick}
      isDisabled={action.disabled}
      isLoading={busy}
      loadingText={action.busyLabel}
    >
      {action.label}
    </Button>
  );
}

/** A form's submit button on its own row, to the right. */
export function SubmitRow(props: { action: PrimaryAction; busy: boolean }) {
  return (
    <Flex justifyContent="flex-end">
      <PrimaryButton {...props} />
    </Flex>
  );
}

/** A link on the left (Back to sign in, Forgot password) and the submit button on the right. */
export function LinkAndSubmit({
  to,
  link,
  ...props
}: {
  to: string;
  link: ReactNode;
  action: PrimaryAction;
  busy: boolean;
}) {
  return (
    <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="0.75rem">
      <Link to={to}>{link}</Link>
      {/* a long busy label ('Waiting for your passkey…') wraps the button: it stays on the right, under the link */}
      <Flex marginLeft="auto">
        <PrimaryButton {...props} />
      </Flex>
    </Flex>
  );
}

/**
 * A step's two buttons: the one that leaves (Cancel, Back) to `back.to` and the primary one; both wait
 * while the call runs.
 */
export function StepButtons({
  back,
  action,
  busy,
}: {
  back: { label: string; to: string };
  action: PrimaryAction;
  busy: boolean;
}) {
  const navigate = useNavigate();
  return (
    <>
      <Button onClick={() => navigate(back.to)} isDisabled={busy}>
        {back.label}
      </Button>
      <PrimaryButton action={action} busy={busy} />
    </>
  );
}

/**
 * A creation step's form: its fields in one column under the alert of a failed save (`alertHeading`
 * says what failed), and the step's two buttons below them.
 */
export function StepForm({
  labelledBy,
  onSubmit,
  maxWidth,
  alertHeading,
  failure,
  buttons,
  children,
}: {
  labelledBy: string;
  onSubmit: (event: FormEvent) => void;
  maxWidth: string;
  alertHeading: string;
  failure: string | null;
  buttons: Parameters<typeof StepButtons>[0];
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={labelledBy}>
      <Flex direction="column" gap="1.25rem" maxWidth={maxWidth}>
        <FormAlert heading={alertHeading} message={failure} />
        {children}
      </Flex>
      <div className="frp-actions">
        <StepButtons {...buttons} />
      </div>
    </form>
  );
}

/** A required text input with its length limit and the error under it. */
export function RequiredTextField(props: {
  label: string;
  value: string;
  maxLength: number;
  onChange: (value: string) => void;
  error: string | null | undefined;
}) {
  return (
    <TextField
      label={props.label}
      value={props.value}
      isRequired
      maxLength={props.maxLength}
      onChange={(e) => props.onChange(e.target.value)}
      hasError={Boolean(props.error)}
      errorMessage={props.error}
    />
  );
}

/** The email address a person signs in with (sign-in, reset password, a new confirmation link). */
export function EmailAddressField({
  value,
  onChange,
  hasError,
  errorMessage,
  autoComplete = 'username',
  isRequired = true,
}: {
  value: string;
  onChange: (value: string) => void;
  hasError: boolean;
  errorMessage?: string;
  autoComplete?: 'username' | 'email';
  isRequired?: boolean;
}) {
  return (
    <TextField
      label="Email address"
      name="email"
      type="email"
      autoComplete={autoComplete}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      hasError={hasError}
      errorMessage={errorMessage}
      isRequired={isRequired}
    />
  );
}

/** A required password input; `hint` says the length rule where a new password is chosen. */
export function SecretField({
  label,
  name,
  autoComplete,
  value,
  onChange,
  hasError,
  errorMessage,
  hint,
}: {
  label: string;
  name: string;
  autoComplete: 'current-password' | 'new-password';
  value: string;
  onChange: (value: string) => void;
  hasError: boolean;
  errorMessage?: string;
  hint?: string;
}) {
  return (
    <PasswordField
      label={label}
      name={name}
      autoComplete={autoComplete}
      descriptiveText={hint}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      hasError={hasError}
      errorMessage={errorMessage}
      isRequired
    />
  );
}
