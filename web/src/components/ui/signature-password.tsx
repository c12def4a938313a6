import { Alert, PasswordField, TextAreaField } from '@aws-amplify/ui-react';
import type { Ref } from 'react';

/**
 * The password that makes a decision an electronic signature (package decisions, grants, a signed
 * deletion), and the server's refusal of it, said under the field. One field for every signing dialog.
 */
export function SignaturePassword(props: {
  inputRef: Ref<HTMLInputElement>;
  name: string;
  value: string;
  onChange: (value: string) => void;
  busy: boolean;
  refusal: string | null;
  descriptiveText?: string;
}) {
  return (
    <>
      <PasswordField
        ref={props.inputRef}
        label="Your password"
        descriptiveText={props.descriptiveText}
        autoComplete="current-password"
        name={props.name}
        value={props.value}
        isRequired
        onChange={(event) => props.onChange(event.target.value)}
        isDisabled={props.busy}
        hasError={props.refusal !== null}
        hideShowPassword
      />
      {props.refusal !== null ? (
        <Alert variation="error" role="alert" marginTop="0.75rem">
          {props.refusal}
        </Alert>
      ) : null}
    </>
  );
}

/** The reason a signed decision carries (a rejection, a signed deletion): required, at most 2,000 characters. */
export function SignatureReason(props: {
  label: string;
  rows: number;
  value: string;
  onChange: (value: string) => void;
  busy: boolean;
  descriptiveText?: string;
}) {
  return (
    <TextAreaField
      label={props.label}
      descriptiveText={props.descriptiveText}
      rows={props.rows}
      value={props.value}
      isRequired
      maxLength={2000}
      onChange={(event) => props.onChange(event.target.value)}
      isDisabled={props.busy}
      marginBottom="0.75rem"
    />
  );
}
