import { Alert, Button, Flex } from '@aws-amplify/ui-react';
import type { CopiedFrom } from '@shared/api/contracts/packages';
import type { Header } from '@shared/domain/header/header-schema';
import { useEffect, useId, useRef, useState } from 'react';
import { useBlocker } from 'react-router-dom';
import { dialogKeys } from '@/components/ui/dialog-keys';
import { ModalDialog } from '@/components/ui/modal-dialog';
import { STATUS_LABELS } from '@/components/ui/status-badge';
import type { HeaderEditor, SaveStatus } from '../hooks/use-header-editor';
import { dropUnsaved, readUnsaved, type UnsavedHeader } from '../utils/unsaved-header';

/**
 * "never lose, never re-type" (decision 241): what the header editor adds around the spec's table: the save
 * state of the autosave, the question before leaving with values the server does not hold yet, the values
 * a failed save kept in this browser, and what a package started from an earlier one copied.
 */

const hhmm = (d: Date) => d.toTimeString().slice(0, 5);

/** "Saved 12:03", "Saving…", "Not saved: <reason>" beside Continue (a polite live region). */
export function SaveStatusText({ status }: { status: SaveStatus }) {
  const text =
    status.kind === 'saved'
      ? `Saved ${hhmm(status.at)}`
      : status.kind === 'saving'
        ? 'Saving…'
        : status.kind === 'pending'
          ? 'Changes not saved yet'
          : status.kind === 'failed'
            ? `Not saved: ${status.reason}`
            : 'Every change is saved to the draft as you type';
  return (
    <span
      className={`frp-hdr-msg frp-save-status${status.kind === 'failed' ? ' frp-hdr-msg--error' : ''}`}
      role="status"
      aria-live="polite"
      data-save-state={status.kind}
    >
      {text}
    </span>
  );
}

/**
 * Leaving the editor (a link, the Back button) first saves what is not saved yet; when that fails it asks.
 * A reload or closing the tab with values not saved yet asks the browser's own question.
 */
export function LeaveGuard({ editor }: { editor: HeaderEditor }) {
  const { isDirty, flush } = editor;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && isDirty(),
  );
  const [ask, setAsk] = useState(false);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let live = true;
    flush().then((ok) => {
      if (!live) return;
      if (ok) blocker.proceed();
      else setAsk(true);
    });
    return () => {
      live = false;
    };
  }, [blocker, flush]);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirty()) return;
      event.preventDefault();
      // older browsers show their question only with a returnValue
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [isDirty]);

  if (!ask || blocker.state !== 'blocked') return null;
  return (
    <LeaveDialog
      reason={editor.status.kind === 'failed' ? editor.status.reason : 'the server did not answer'}
      onStay={() => {
        setAsk(false);
        blocker.reset();
      }}
      onLeave={() => {
        setAsk(false);
        blocker.proceed();
      }}
    />
  );
}

function LeaveDialog({
  reason,
  onStay,
  onLeave,
}: {
  reason: string;
  onStay: () => void;
  onLeave: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('button')?.focus();
  }, []);
  return (
    <ModalDialog
      dialogRef={ref}
      className="frp-dialog--warning"
      titleId={titleId}
      describedBy={textId}
      onKeyDown={dialogKeys(ref, { focusable: 'button', busy: false, onCancel: onStay })}
      title="Leave with header changes not saved?"
    >
      <p id={textId} className="frp-dialog__message">
        The last changes to the header could not be saved ({reason}). They are kept in this browser and
        offered again when you open this draft, but nobody else sees them until they are saved.
      </p>
      <Flex justifyContent="flex-end" gap="0.75rem">
        <Button variation="primary" onClick={onStay}>
          Stay on this page
        </Button>
        <Button onClick={onLeave}>Leave without saving</Button>
      </Flex>
    </ModalDialog>
  );
}

/** Values a failed save kept in this browser, offered back when they differ from the server's. */
export function KeptInBrowser({
  packageId,
  server,
  editor,
}: {
  packageId: string;
  server: Header;
  editor: HeaderEditor;
}) {
  const [kept, setKept] = useState<UnsavedHeader | null>(() => {
    const local = readUnsaved(packageId);
    return local && JSON.stringify(local.fields) !== JSON.stringify(server.fields) ? local : null;
  });
  useEffect(() => {
    if (!kept) dropUnsaved(packageId);
  }, [kept, packageId]);
  if (!kept) return null;
  return (
    <Alert variation="warning" heading="Header changes kept in this browser" marginBottom="1rem">
      <p>
        Changes made at {kept.at.slice(0, 16).replace('T', ' ')} were not saved to the server ({kept.reason}
        ). The values below are the saved ones.
      </p>
      <Flex gap="0.75rem">
        <Button
          size="small"
          variation="primary"
          onClick={() => {
            editor.restore({ fields: kept.fields });
            setKept(null);
          }}
        >
          Restore my changes
        </Button>
        <Button size="small" onClick={() => setKept(null)}>
          Discard them
        </Button>
      </Flex>
    </Alert>
  );
}

/** What a package started from an earlier one copied: the source, the values and the DCC. */
export function CopiedFromNote({ copied }: { copied: CopiedFrom }) {
  const n = copied.fields.length;
  return (
    <Alert variation="info" heading="Started from an earlier package" marginBottom="1rem">
      <p>
        Copied from <strong>{copied.name}</strong> ({STATUS_LABELS[copied.status]}):{' '}
        {n === 0
          ? 'its header values are those of a new package'
          : `${n} header value${n === 1 ? '' : 's'} (${copied.fields.join(', ')})`}
        {copied.dcc
          ? ` and the DCC ${copied.dcc.deviceId} (${copied.dcc.telemetryType})`
          : ' — no DCC was copied; choose one in the next step'}
        . Check them and change what must change.
      </p>
    </Alert>
  );
}
