import { Alert, CheckboxField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import type { Package } from '@shared/api/contracts/packages';
import type { Resource } from '@shared/api/contracts/resources';
import { isEditable } from '@shared/domain/package-lifecycle';
import { defaultPackageName } from '@shared/domain/package-names';
import { packageTypeOf } from '@shared/domain/package-rules';
import { packageTypeLabel } from '@shared/domain/package-type-label';
import { MSG } from '@shared/messages';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { RequiredTextField, StepForm } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { useApiQuery } from '@/hooks/use-api-query';
import { session, useSession } from '@/lib/session/session-store';
import { generatePackage, getPackageSources, updateDraft } from '../api/create-package';
import { getDeviceIds } from '../api/dcc';
import { creationTitle } from '../utils/package-flow';
import { CreationSteps } from './package-fields';
import { PackagePage } from './package-page';
import { type StartFrom, StartFromField } from './start-from-field';

/**
 * the creation flow is one draft from step 1. The session's package is the user's own draft of
 * this resource when they come back to step 1 (Back from the header step, a reload, "Continue editing");
 * Continue then updates it instead of creating a second one (which would clash with its own name).
 */
function ownDraft(pkg: Package | null, resource: Resource | null, userId: string | undefined) {
  if (!pkg || !isEditable(pkg.status) || pkg.initiator.id !== userId) return null;
  return !resource || resource.id === pkg.resourceId ? pkg : null;
}

/** Spec §2.8: the name is the resource name plus upload time (patch), or the model name plus version. */
export { defaultPackageName };

/** Spec §5: a conflict whose message says so means the name is taken. */
const isNameConflict = (message: string) =>
  message.includes('already exists') || message.includes('duplicate key value');

/**
 * Spec §2.8, §4.2 step 2, §5: /packages/create. Package name (prefilled), the read-only resource name,
 * upload time or version, 'Sign?', a required Note; Continue is inactive until name and note have text.
 */
export function CreatePackagePage() {
  const navigate = useNavigate();
  const { resource, subHeader, currentPackage, user } = useSession();
  const draft = ownDraft(currentPackage, resource, user?.id);
  const [name, setName] = useState(() => draft?.name ?? (resource ? defaultPackageName(resource) : ''));
  const [nameTouched, setNameTouched] = useState(false);
  const [signed, setSigned] = useState(() => draft?.signed ?? false);
  const [note, setNote] = useState(() => draft?.note ?? '');
  const [noteTouched, setNoteTouched] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // undefined until the user chooses: the server's proposal holds
  const [chosenStart, setStartFrom] = useState<StartFrom | undefined>(undefined);
  // a new package may start from an earlier one; the server proposes one and a free name
  const resourceId = !draft && resource ? resource.id : null;
  const sources = useApiQuery(
    (signal) =>
      resourceId
        ? getPackageSources(resourceId, signal)
        : Promise.resolve({ ok: true as const, status: 200, data: null }),
    [resourceId],
  );
  // a new resource has no earlier package of its own: the user may name its device to be offered that
  // device's packages (decision 268); the device ids come from the DCC list
  const ownless = resourceId !== null && sources.data?.packages.length === 0;
  const devices = useApiQuery(
    (signal) =>
      ownless ? getDeviceIds(signal) : Promise.resolve({ ok: true as const, status: 200, data: null }),
    [ownless],
  );
  const [device, setDevice] = useState('');
  const deviceSources = useApiQuery(
    (signal) =>
      resourceId && ownless && device
        ? getPackageSources(resourceId, signal, device)
        : Promise.resolve({ ok: true as const, status: 200, data: null }),
    [resourceId, ownless, device],
  );
  const offers = device ? deviceSources.data : sources.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per answer; a name the user typed stays
  useEffect(() => {
    const s = sources.data;
    if (!s) return;
    if (!nameTouched) setName(s.freeName);
  }, [sources.data]);

  if (!resource && !draft)
    return (
      <PackagePage id="create-title" title={subHeader || MSG.generateDevPackageTitle}>
        <Alert variation="info">
          Choose a <Link to={paths.patches}>patch</Link> or a <Link to={paths.models}>model</Link> first, then
          press '{MSG.createPackage}'.
        </Alert>
      </PackagePage>
    );

  const startFrom = chosenStart === undefined ? (offers?.proposedId ?? null) : chosenStart;
  const stage = draft?.resourceStage ?? resource?.resourceStage ?? 'DEV';
  const isModel = (draft?.resourceType ?? resource?.resourceType) === 'MODEL';
  const noteBlank = note.trim() === '';
  const ready = name.trim() !== '' && !noteBlank && !busy;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    const req = { packageName: name.trim(), packageType: packageTypeOf(stage, signed), note: note.trim() };
    const unchanged =
      draft && draft.name === req.packageName && draft.type === req.packageType && draft.note === req.note;
    if (unchanged) {
      navigate(paths.packages.header);
      return;
    }
    setBusy(true);
    setFailure(null);
    const result = draft
      ? await updateDraft(draft.id, req)
      : resource
        ? await generatePackage(resource.id, { ...req, ...(startFrom ? { fromPackageId: startFrom } : {}) })
        : null;
    setBusy(false);
    if (!result) return;
    if (result.ok) {
      session.update({ currentPackage: result.data });
      navigate(paths.packages.header);
      return;
    }
    if (result.status === 409 && isNameConflict(result.error.errorMessage))
      setNameError(MSG.packageNameConflict);
    else setFailure(result.error.errorMessage);
  };

  return (
    <PackagePage id="create-title" title={subHeader || creationTitle(stage)}>
      <CreationSteps current={1} />
      {draft ? (
        <Alert variation="info" marginBottom="1rem" heading="Your draft">
          This is your draft <strong>{draft.name}</strong>, started{' '}
          {draft.createdAt.slice(0, 16).replace('T', ' ')}. Continue keeps its header and DCC and saves what
          you change here.
        </Alert>
      ) : null}
      <StepForm
        labelledBy="create-title"
        onSubmit={submit}
        maxWidth="40rem"
        alertHeading="The package was not created"
        failure={failure}
        buttons={{
          back: { label: MSG.cancel, to: isModel ? paths.models : paths.patches },
          action: { label: MSG.continue, busyLabel: draft ? 'Saving…' : 'Creating…', disabled: !ready },
          busy,
        }}
      >
        <RequiredTextField
          label={MSG.colPackageName}
          value={name}
          maxLength={120}
          onChange={(value) => {
            setName(value);
            setNameTouched(true);
            setNameError(null);
          }}
          error={nameError}
        />
        <TextField
          className="frp-readonly"
          label={MSG.resourceName}
          value={resource?.name ?? draft?.resourceName ?? ''}
          isReadOnly
        />
        {isModel ? (
          <TextField
            className="frp-readonly"
            label={MSG.version}
            value={resource?.modelVersion ?? ''}
            isReadOnly
          />
        ) : (
          <TextField
            className="frp-readonly"
            label={MSG.uploadTime}
            value={resource?.uploadTime ?? draft?.uploadTime ?? ''}
            isReadOnly
          />
        )}
        <CheckboxField
          label={MSG.signQuestion}
          name="signed"
          checked={signed}
          onChange={(e) => setSigned(e.target.checked)}
        />
        <p className="frp-muted" style={{ marginTop: '-0.75rem' }}>
          Package type: {packageTypeLabel(packageTypeOf(stage, signed))}{' '}
          <span className="frp-mono">({packageTypeOf(stage, signed)})</span>
          {signed ? ' — a SW/FW Release Engineer signs it after approval.' : ''}
        </p>
        <div>
          <TextAreaField
            label={MSG.colNote}
            value={note}
            rows={4}
            isRequired
            maxLength={2000}
            onChange={(e) => {
              setNote(e.target.value);
              setNoteTouched(true);
            }}
            onBlur={() => setNoteTouched(true)}
            hasError={noteBlank && noteTouched}
            errorMessage={MSG.packageNoteRequired}
            aria-describedby={noteBlank && !noteTouched ? 'note-hint' : undefined}
          />
          {noteBlank && !noteTouched ? (
            <p id="note-hint" className="frp-muted" style={{ margin: '0.25rem 0 0' }}>
              {MSG.packageNoteRequired}
            </p>
          ) : null}
        </div>
        {sources.data ? (
          <StartFromField
            sources={offers?.packages ?? []}
            proposedId={offers?.proposedId ?? null}
            value={startFrom}
            onChange={setStartFrom}
            deviceChoice={
              ownless && devices.data
                ? {
                    devices: devices.data,
                    device,
                    onDevice: (d) => {
                      setDevice(d);
                      // the new device's proposal holds until the user chooses again
                      setStartFrom(undefined);
                    },
                    loading: device !== '' && deviceSources.loading,
                  }
                : undefined
            }
          />
        ) : null}
      </StepForm>
    </PackagePage>
  );
}
