import { Heading, SelectField, TextField } from '@aws-amplify/ui-react';
import { createDccSchema, TELEMETRY_TYPES, type TelemetryType } from '@shared/api/contracts/dcc';
import { MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { RequiredTextField, StepForm } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session/session-store';
import { createDcc } from '../api/dcc';
import { creationTitle } from '../utils/package-flow';
import type { DccListState } from './dcc-list-page';
import { CreationSteps } from './package-fields';
import { PackagePage } from './package-page';

type Errors = Partial<Record<'deviceId' | 'messageLimit' | 'deviceLimit' | 'telemetryType', string>>;

/** A limit in bytes: digits only. */
function BytesField(props: {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  return (
    <TextField
      label={props.label}
      value={props.value}
      inputMode="numeric"
      descriptiveText={props.hint}
      onChange={(e) => digitsOnly(e.target.value) && props.onChange(e.target.value)}
      hasError={Boolean(props.error)}
      errorMessage={props.error}
    />
  );
}

/** The spec's messages for a DCC, from the shared schema (the server checks the same). */
function validate(form: {
  deviceId: string;
  telemetryType: string;
  messageLimit: string;
  deviceLimit: string;
}): Errors {
  const parsed = createDccSchema.safeParse(form);
  if (parsed.success) return {};
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof Errors;
    errors[key] ??= issue.message;
  }
  return errors;
}

const digitsOnly = (text: string) => /^\d*$/.test(text);

/**
 * Spec §2.8, §5, §9 /packages/dcc/create: Device ID (required to Save), Telemetry type (TelA by default),
 * Message limit and Device limit (numbers only, 0 by default; message limit at least 16 bytes, device
 * limit at least the message limit). Save returns to the list with the new DCC selected.
 */
/** The step's buttons: back to the DCC list, and Save. */
const BACK_TO_LIST = { label: MSG.back, to: paths.packages.dcc };
const SAVE = { label: MSG.save, busyLabel: 'Saving…' };

export function DccCreatePage() {
  const navigate = useNavigate();
  const { currentPackage: pkg, subHeader } = useSession();
  const [deviceId, setDeviceId] = useState('');
  const [telemetryType, setTelemetryType] = useState<TelemetryType>('TelA');
  const [messageLimit, setMessageLimit] = useState('0');
  const [deviceLimit, setDeviceLimit] = useState('0');
  const [attempted, setAttempted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const form = { deviceId, telemetryType, messageLimit, deviceLimit };
  const errors = attempted ? validate(form) : {};
  const canSave = deviceId.trim() !== '' && !busy;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSave) return;
    setAttempted(true);
    if (Object.keys(validate(form)).length > 0) return;
    setBusy(true);
    setFailure(null);
    const result = await createDcc({
      deviceId: deviceId.trim(),
      telemetryType,
      messageLimit: Number(messageLimit),
      deviceLimit: Number(deviceLimit),
    });
    setBusy(false);
    if (!result.ok) {
      setFailure(result.error.errorMessage);
      return;
    }
    navigate(paths.packages.dcc, { state: { selectedDccId: result.data.id } satisfies DccListState });
  };

  return (
    <PackagePage
      id="dcc-create-title"
      title={subHeader || (pkg ? creationTitle(pkg.resourceStage) : 'Create DCC')}
    >
      {pkg ? <CreationSteps current={3} /> : null}
      <Heading level={2} id="dcc-create-form" className="frp-pkg-section__title">
        Create DCC
      </Heading>
      <StepForm
        labelledBy="dcc-create-form"
        onSubmit={save}
        maxWidth="28rem"
        alertHeading="The DCC was not saved"
        failure={failure}
        buttons={{ back: BACK_TO_LIST, action: { ...SAVE, disabled: !canSave }, busy }}
      >
        <RequiredTextField
          label={MSG.colDeviceId}
          value={deviceId}
          maxLength={64}
          onChange={setDeviceId}
          error={errors.deviceId}
        />
        <SelectField
          label={MSG.colTelemetryType}
          value={telemetryType}
          onChange={(e) => setTelemetryType(e.target.value as TelemetryType)}
        >
          {TELEMETRY_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        {(
          [
            [MSG.colMessageLimit, 'Bytes, at least 16', messageLimit, setMessageLimit, errors.messageLimit],
            [
              MSG.colDeviceLimit,
              'Bytes, at least the message limit',
              deviceLimit,
              setDeviceLimit,
              errors.deviceLimit,
            ],
          ] as const
        ).map(([label, hint, value, onChange, error]) => (
          <BytesField key={label} label={label} hint={hint} value={value} onChange={onChange} error={error} />
        ))}
      </StepForm>
    </PackagePage>
  );
}
