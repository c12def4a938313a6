import { Button, DropZone, Flex, Text, VisuallyHidden } from '@aws-amplify/ui-react';
import { MSG } from '@shared/messages';
import { useId, useRef, useState } from 'react';
import { type FileRules, fileError } from './file-validation';

/** Spec §2.11, §9: the dropzone is at least 322 px and at most 508 px wide. */
export const DROPZONE_MIN_WIDTH_PX = 322;
export const DROPZONE_MAX_WIDTH_PX = 508;

export interface FileDropZoneProps extends FileRules {
  /** what the file is, e.g. 'Patch file' */
  label: string;
  file: File | null;
  onChange: (file: File | null) => void;
  isDisabled?: boolean;
}

/**
 * Spec §2.11 file picker: drag and drop or click, one file, 'No files uploaded yet' or 'File name: …',
 * the type and size messages of §5; 322 to 508 px wide.
 */
export function FileDropZone({ label, file, onChange, isDisabled, ...rules }: FileDropZoneProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const statusId = useId();
  const inputId = useId();

  const take = (candidate: File | undefined) => {
    if (!candidate) return;
    const problem = fileError(candidate, rules);
    setError(problem);
    onChange(problem ? null : candidate);
  };

  return (
    <fieldset
      className="frp-dropzone"
      data-testid="file-drop-zone"
      style={{ minWidth: DROPZONE_MIN_WIDTH_PX, maxWidth: DROPZONE_MAX_WIDTH_PX }}
    >
      <legend className="frp-dropzone__legend">
        {label}{' '}
        <Text as="span" fontWeight={400} color="font.secondary">
          (.{rules.extension})
        </Text>
      </legend>
      <DropZone
        isDisabled={isDisabled}
        onDropComplete={({ acceptedFiles, rejectedFiles }) => take(acceptedFiles[0] ?? rejectedFiles[0])}
      >
        <Flex direction="column" alignItems="center" gap="0.5rem">
          <Text>Drag the file here, or</Text>
          <Button
            size="small"
            isDisabled={isDisabled}
            onClick={() => inputRef.current?.click()}
            aria-describedby={statusId}
          >
            Choose {label.toLowerCase()}
          </Button>
          <VisuallyHidden>
            <label htmlFor={inputId}>{label}</label>
            <input
              id={inputId}
              ref={inputRef}
              type="file"
              tabIndex={-1}
              accept={`.${rules.extension}`}
              disabled={isDisabled}
              onChange={(event) => {
                take(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
          </VisuallyHidden>
          <Text
            id={statusId}
            aria-live="polite"
            fontWeight={file ? 600 : 400}
            textAlign="center"
            style={{ overflowWrap: 'anywhere' }}
          >
            {file ? `${MSG.fileNamePrefix}${file.name}` : MSG.noFilesYet}
          </Text>
        </Flex>
      </DropZone>
      {error ? (
        <div role="alert">
          <p className="frp-field-error">{error}</p>
          <p className="frp-field-error">{MSG.fileTypeSizeError}</p>
        </div>
      ) : null}
    </fieldset>
  );
}
