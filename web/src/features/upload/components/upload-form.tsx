import { Flex, Heading, TextField, ToggleButton, ToggleButtonGroup } from '@aws-amplify/ui-react';
import {
  EXTENSIONS,
  type ResourceType,
  resourceNameSchema,
  type Stage,
} from '@shared/api/contracts/resources';
import { MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { FileDropZone } from '@/components/ui/file-drop-zone';
import { StepButtons } from '@/components/ui/form-parts';
import { ProgressBar } from '@/components/ui/progress-bar';
import { paths } from '@/config/paths';
import { showServerError, showSuccess, showWarning } from '@/lib/popup/popup-store';
import { uploadResource } from '../api/upload-resource';

const formatMiB = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** Empty files are refused; the server caps metadata at 1 MiB (spec §5 sets no other limit). */
const MIN_BYTES = 1;
const METADATA_MAX_BYTES = 1024 * 1024;

/**
 * Spec §2.11 upload form for one resource type: stage toggle (Dev by default), name, file(s), Cancel and
 * Upload. Mounted anew for each sub-tab, so switching resets it (spec §4.8).
 */
export function UploadForm({ type }: { type: ResourceType }) {
  const [stage, setStage] = useState<Stage>('DEV');
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [resourceFile, setResourceFile] = useState<File | null>(null);
  const [metadataFile, setMetadataFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  /** after the bytes are sent: the server's check of a large file (bytes hashed of all; decision 173) */
  const [checking, setChecking] = useState<{ done: number; total: number } | null>(null);

  const isModel = type === 'MODEL';
  const busy = progress !== null;
  const ready = name.trim() !== '' && resourceFile !== null && (!isModel || metadataFile !== null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (name.trim() === '') return setNameError(MSG.resourceNameRequired);
    const checked = resourceNameSchema.safeParse(name);
    if (!checked.success) return setNameError(checked.error.issues[0]?.message ?? MSG.resourceNameRequired);
    if (!ready || !resourceFile) return;
    setProgress(0);
    setChecking(null);
    const result = await uploadResource(
      { type, stage, name: checked.data, resourceFile, metadataFile: isModel ? metadataFile : null },
      (fraction) => setProgress(fraction * 100),
      (done, total) => setChecking({ done, total }),
    );
    setProgress(null);
    setChecking(null);
    if (result.ok) {
      showSuccess(MSG.uploaded, { to: paths.home });
      return;
    }
    if (result.status === 409) {
      if (result.error.errorMessage.includes('already exists')) setNameError(MSG.resourceNameConflict);
      else showServerError(result.error.errorMessage);
    } else if (result.status === 406) showWarning(result.error.errorMessage);
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`upload-${type}-heading`}>
      <Flex direction="column" gap="1.25rem">
        <Heading level={2} id={`upload-${type}-heading`} fontSize="1.25rem">
          {isModel ? MSG.uploadModelHeading : MSG.uploadPatchHeading}
        </Heading>
        <ToggleButtonGroup
          value={stage}
          isExclusive
          isSelectionRequired
          size="small"
          aria-label="Resource stage"
          onChange={(value) => setStage(value as Stage)}
        >
          <ToggleButton value="DEV" isDisabled={busy}>
            {MSG.stageDev}
          </ToggleButton>
          <ToggleButton value="RELEASE" isDisabled={busy}>
            {MSG.stageRelease}
          </ToggleButton>
        </ToggleButtonGroup>
        <TextField
          label={isModel ? MSG.modelNameLabel : MSG.patchNameLabel}
          name="name"
          value={name}
          maxWidth="508px"
          isDisabled={busy}
          onChange={(e) => {
            setName(e.target.value);
            setNameError(null);
          }}
          onBlur={() => {
            if (name.trim() === '') setNameError(MSG.resourceNameRequired);
          }}
          hasError={Boolean(nameError)}
          errorMessage={nameError}
          isRequired
        />
        <FileDropZone
          label={isModel ? 'Model file' : 'Patch file'}
          extension={EXTENSIONS.resourceFile[type]}
          minBytes={MIN_BYTES}
          file={resourceFile}
          onChange={setResourceFile}
          isDisabled={busy}
        />
        {isModel ? (
          <FileDropZone
            label="Metadata file"
            extension={EXTENSIONS.metadataFile}
            minBytes={MIN_BYTES}
            maxBytes={METADATA_MAX_BYTES}
            file={metadataFile}
            onChange={setMetadataFile}
            isDisabled={busy}
          />
        ) : null}
        {busy && !checking ? <ProgressBar percent={progress ?? 0} label="Uploading" /> : null}
        {busy && checking ? (
          <ProgressBar
            percent={checking.total > 0 ? (checking.done / checking.total) * 100 : 0}
            label="Checking the file (size and SHA-256)"
            detail={`${formatMiB(checking.done)} of ${formatMiB(checking.total)}. The file is in storage; it is registered when the check is done.`}
          />
        ) : null}
        <Flex gap="0.75rem">
          <StepButtons
            back={{ label: MSG.cancel, to: paths.home }}
            action={{ label: MSG.upload, busyLabel: checking ? 'Checking…' : 'Uploading…', disabled: !ready }}
            busy={busy}
          />
        </Flex>
      </Flex>
    </form>
  );
}
