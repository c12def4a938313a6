import { SelectField, TextField } from '@aws-amplify/ui-react';
import { type NonAdminRole, ROLE_LABELS, SELF_SERVICE_ROLES } from '@shared/domain/roles';

/** Name and email of an account, as registration and the settings page ask for them. */
export function NameAndEmailFields(props: {
  name: string;
  email: string;
  onName: (value: string) => void;
  onEmail: (value: string) => void;
  errors: { name?: string; email?: string };
}) {
  const fields = [
    { label: 'Name', name: 'name', type: undefined, value: props.name, onChange: props.onName },
    { label: 'Email', name: 'email', type: 'email', value: props.email, onChange: props.onEmail },
  ] as const;
  return (
    <>
      {fields.map((f) => (
        <TextField
          key={f.name}
          label={f.label}
          name={f.name}
          type={f.type}
          autoComplete={f.name}
          value={f.value}
          onChange={(e) => f.onChange(e.target.value)}
          hasError={Boolean(props.errors[f.name])}
          errorMessage={props.errors[f.name]}
          isRequired
        />
      ))}
    </>
  );
}

/** The roles a person may choose for themselves (never ADMIN). */
export function RoleField(props: {
  value: NonAdminRole | '';
  onChange: (role: NonAdminRole) => void;
  /** shown while no role is chosen (an account made by a company sign-in, decision 316) */
  placeholder?: string;
  hasError?: boolean;
  errorMessage?: string;
}) {
  return (
    <SelectField
      label="User role"
      name="userRole"
      value={props.value}
      placeholder={props.placeholder}
      hasError={props.hasError}
      errorMessage={props.errorMessage}
      onChange={(e) => props.onChange(e.target.value as NonAdminRole)}
    >
      {SELF_SERVICE_ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role]}
        </option>
      ))}
    </SelectField>
  );
}
