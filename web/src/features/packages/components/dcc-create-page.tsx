import { Alert, Button, Flex, Heading, SelectField, TextField } from '@aws-amplify/ui-react';
import { createDccSchema, TELEMETRY_TYPES, type TelemetryType } from '@shared/api/contracts/dcc';
import { MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session/session-store';
import { createDcc } from '../api/dcc';
import { creationTitle } from '../utils/package-flow';
import type { DccListState } from './dcc-list-page';
import { CreationSteps } from './package-fields';
import { PackagePage } from './package-page';

type Errors = Partial<Record<'deviceId' | 'messageLimit' | 'deviceLimit' | 'telemetryType', string>>;

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
      <form onSubmit={save} noValidate aria-labelledby="dcc-create-form">
        <Flex direction="column" gap="1.25rem" maxWidth="28rem">
          {failure ? (
            <Alert variation="error" heading="The DCC was not saved" role="alert">
              {failure}
            </Alert>
          ) : null}
          <TextField
            label={MSG.colDeviceId}
            value={deviceId}
            isRequired
            maxLength={64}
            onChange={(e) => setDeviceId(e.target.value)}
            hasError={Boolean(errors.deviceId)}
            errorMessage={errors.deviceId}
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
          <TextField
            label={MSG.colMessageLimit}
            value={messageLimit}
            inputMode="numeric"
            descriptiveText="Bytes, at least 16"
            onChange={(e) => digitsOnly(e.target.value) && setMessageLimit(e.target.value)}
            hasError={Boolean(errors.messageLimit)}
            errorMessage={errors.messageLimit}
          />
          <TextField
            label={MSG.colDeviceLimit}
            value={deviceLimit}
            inputMode="numeric"
            descriptiveText="Bytes, at least the message limit"
            onChange={(e) => digitsOnly(e.target.value) && setDeviceLimit(e.target.value)}
            hasError={Boolean(errors.deviceLimit)}
            errorMessage={errors.deviceLimit}
          />
        </Flex>
        <div className="frp-actions">
          <Button onClick={() => navigate(paths.packages.dcc)} isDisabled={busy}>
            {MSG.back}
          </Button>
          <Button
            type="submit"
            variation="primary"
            isDisabled={!canSave}
            isLoading={busy}
            loadingText="Saving…"
          >
            {MSG.save}
          </Button>
        </div>
      </form>
    </PackagePage>
  );
}
