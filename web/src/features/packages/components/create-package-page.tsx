import { Alert, CheckboxField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import type { Resource } from '@shared/api/contracts/resources';
import { packageTypeOf } from '@shared/domain/package-rules';
import { MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { RequiredTextField, StepForm } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { session, useSession } from '@/lib/session/session-store';
import { generatePackage } from '../api/create-package';
import { creationTitle } from '../utils/package-flow';
import { CreationSteps } from './package-fields';
import { PackagePage } from './package-page';

/** Spec §2.8: the name is the resource name plus upload time (patch), or the model name plus version. */
export function defaultPackageName(resource: Resource): string {
  if (resource.resourceType === 'MODEL')
    return `${resource.modelName ?? resource.name}_${resource.modelVersion ?? ''}`.replace(/_$/, '');
  return `${resource.name}_${resource.uploadTime}`;
}

/** Spec §5: a conflict whose message says so means the name is taken. */
const isNameConflict = (message: string) =>
  message.includes('already exists') || message.includes('duplicate key value');

/**
 * Spec §2.8, §4.2 step 2, §5: /packages/create. Package name (prefilled), the read-only resource name,
 * upload time or version, 'Sign?', a required Note; Continue is inactive until name and note have text.
 */
export function CreatePackagePage() {
  const navigate = useNavigate();
  const { resource, subHeader } = useSession();
  const [name, setName] = useState(() => (resource ? defaultPackageName(resource) : ''));
  const [signed, setSigned] = useState(false);
  const [note, setNote] = useState('');
  const [noteTouched, setNoteTouched] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!resource)
    return (
      <PackagePage id="create-title" title={subHeader || MSG.generateDevPackageTitle}>
        <Alert variation="info">
          Choose a <Link to={paths.patches}>patch</Link> or a <Link to={paths.models}>model</Link> first, then
          press '{MSG.createPackage}'.
        </Alert>
      </PackagePage>
    );

  const isModel = resource.resourceType === 'MODEL';
  const noteBlank = note.trim() === '';
  const ready = name.trim() !== '' && !noteBlank && !busy;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setBusy(true);
    setFailure(null);
    const result = await generatePackage(resource.id, {
      packageName: name.trim(),
      packageType: packageTypeOf(resource.resourceStage, signed),
      note: note.trim(),
    });
    setBusy(false);
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
    <PackagePage id="create-title" title={subHeader || creationTitle(resource.resourceStage)}>
      <CreationSteps current={1} />
      <StepForm
        labelledBy="create-title"
        onSubmit={submit}
        maxWidth="40rem"
        alertHeading="The package was not created"
        failure={failure}
        buttons={{
          back: { label: MSG.cancel, to: isModel ? paths.models : paths.patches },
          action: { label: MSG.continue, busyLabel: 'Creating…', disabled: !ready },
          busy,
        }}
      >
        <RequiredTextField
          label={MSG.colPackageName}
          value={name}
          maxLength={120}
          onChange={(value) => {
            setName(value);
            setNameError(null);
          }}
          error={nameError}
        />
        <TextField className="frp-readonly" label={MSG.resourceName} value={resource.name} isReadOnly />
        {isModel ? (
          <TextField
            className="frp-readonly"
            label={MSG.version}
            value={resource.modelVersion ?? ''}
            isReadOnly
          />
        ) : (
          <TextField className="frp-readonly" label={MSG.uploadTime} value={resource.uploadTime} isReadOnly />
        )}
        <CheckboxField
          label={MSG.signQuestion}
          name="signed"
          checked={signed}
          onChange={(e) => setSigned(e.target.checked)}
        />
        <p className="frp-muted" style={{ marginTop: '-0.75rem' }}>
          Package type: <span className="frp-mono">{packageTypeOf(resource.resourceStage, signed)}</span>
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
      </StepForm>
    </PackagePage>
  );
}
