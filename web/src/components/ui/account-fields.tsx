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
  return (
    <>
      <TextField
        label="Name"
        name="name"
        autoComplete="name"
        value={props.name}
        onChange={(e) => props.onName(e.target.value)}
        hasError={Boolean(props.errors.name)}
        errorMessage={props.errors.name}
        isRequired
      />
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        value={props.email}
        onChange={(e) => props.onEmail(e.target.value)}
        hasError={Boolean(props.errors.email)}
        errorMessage={props.errors.email}
        isRequired
      />
    </>
  );
}

/** The roles a person may choose for themselves (never ADMIN). */
export function RoleField(props: { value: NonAdminRole; onChange: (role: NonAdminRole) => void }) {
  return (
    <SelectField
      label="User role"
      name="userRole"
      value={props.value}
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
