import { Alert } from '@aws-amplify/ui-react';
import type { Header } from '@shared/domain/header/header-schema';
import { isEditable } from '@shared/domain/package-lifecycle';
import { MSG } from '@shared/messages';
import { StepButtons } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session/session-store';
import { useHeaderEditor } from '../hooks/use-header-editor';
import { usePackageHeader } from '../hooks/use-package-header';
import { creationTitle } from '../utils/package-flow';
import { CopiedFromNote, KeptInBrowser, LeaveGuard, SaveStatusText } from './header-autosave-parts';
import { EditorEntryRow, EditorFixedRow, EditorListRow, EditorValueRow } from './header-editor-cells';
import { HeaderTable, HeaderUnavailable } from './header-table';
import { CreationSteps, PackageStrip } from './package-fields';
import { NoPackage, PackagePage } from './package-page';

/** The editor of one loaded header: the table of inputs, why the server refused it, Cancel and Continue. */
function HeaderEditor({
  initial,
  packageId,
  readOnly,
}: {
  initial: Header;
  packageId: string;
  readOnly: boolean;
}) {
  const editor = useHeaderEditor(initial, packageId, readOnly);
  const { fields, errors, refusal, entryKeys, saving } = editor.state;
  const { blank } = editor;

  return (
    <>
      {readOnly ? null : <KeptInBrowser packageId={packageId} server={initial} editor={editor} />}
      {readOnly ? null : <LeaveGuard editor={editor} />}
      {refusal ? (
        <Alert variation="error" heading="Header not saved" marginBottom="1rem" role="alert">
          {refusal.message}
          {refusal.unplaced.length > 0 ? (
            <ul>
              {refusal.unplaced.map((e) => (
                <li key={`${e.field}:${e.message}`}>
                  {e.field}: {e.message}
                </li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
      <HeaderTable
        fields={fields}
        columns={[MSG.colName, MSG.colDecimal, MSG.colHex]}
        entryKey={(list, index) => entryKeys[list]?.[index] ?? index}
        draw={{
          fixed: (field) => <EditorFixedRow field={field} />,
          value: (row) => <EditorValueRow row={row} editor={editor} readOnly={readOnly} />,
          list: (field) => (
            <EditorListRow
              field={field}
              error={errors[field.name]}
              readOnly={readOnly}
              onAdd={() => editor.addEntry(field.name)}
            />
          ),
          entry: (field, index) => (
            <EditorEntryRow
              list={field.name}
              index={index}
              readOnly={readOnly}
              onDelete={() => editor.deleteEntry(field.name, index)}
            />
          ),
        }}
      />
      <div className="frp-actions">
        {blank ? (
          <span className="frp-hdr-msg frp-hdr-msg--error" role="status">
            Fill in every value before you continue.
          </span>
        ) : null}
        <span className="frp-actions__spacer" />
        {readOnly ? null : <SaveStatusText status={editor.status} />}
        <StepButtons
          back={{ label: MSG.cancel, to: paths.packages.list }}
          action={{
            label: MSG.continue,
            busyLabel: 'Saving…',
            disabled: blank || readOnly,
            onClick: editor.save,
          }}
          busy={saving}
        />
      </div>
    </>
  );
}

/**
 * Spec §2.8, §4.2 step 3: /packages/header edits the package's header (Name, Decimal and HEX); a
 * successful save moves to the DCC step. Only the initiator edits, and only while the package is a draft.
 */
export function HeaderEditorPage() {
  const { currentPackage: pkg, subHeader, user } = useSession();
  const query = usePackageHeader(pkg?.id);
  if (!pkg) return <NoPackage />;
  const editable = isEditable(pkg.status) && pkg.initiator.id === user?.id;
  return (
    <PackagePage id="header-edit-title" title={subHeader || creationTitle(pkg.resourceStage)}>
      <CreationSteps current={2} />
      <PackageStrip pkg={pkg} />
      {pkg.copiedFrom ? <CopiedFromNote copied={pkg.copiedFrom} /> : null}
      {editable ? null : (
        <Alert variation="info" marginBottom="1rem">
          {isEditable(pkg.status)
            ? 'Only the initiator of this package can edit its header.'
            : 'This package was already sent for approval; its header can no longer change.'}
        </Alert>
      )}
      {query.data ? (
        <HeaderEditor key={pkg.id} initial={query.data} packageId={pkg.id} readOnly={!editable} />
      ) : (
        <HeaderUnavailable loading={query.loading} />
      )}
    </PackagePage>
  );
}
