import type { Header, HeaderField } from '@shared/domain/header/header-schema';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { expireSession, isSessionExpired } from '@/lib/api-client/api-client';
import { showRefusal } from '@/lib/popup/popup-store';
import { type SaveHeaderResult, saveHeader } from '../api/header';
import {
  type Draft,
  hasBlank,
  headerEditorReducer,
  initialEditorState,
  placeErrors,
  type Typed,
  type ValueTarget,
} from '../utils/header-editor-state';
import { dropUnsaved, keepUnsaved } from '../utils/unsaved-header';

/** how long the editor waits after the last change before it saves the header to the draft. */
export const AUTOSAVE_DELAY_MS = 800;

/** What the status beside the editor says about the header's values on the server. */
export type SaveStatus =
  | { kind: 'idle' }
  | { kind: 'pending' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: Date }
  | { kind: 'failed'; reason: string };

const REFUSED = 'The server refused the header. Correct the marked fields and continue again.';

/**
 * The header editor of one loaded header (spec §2.8, §3, §5): its state (utils/header-editor-state.ts),
 * the autosave (decision 241: every change is saved to the draft on the server a moment after the last
 * keystroke, one save at a time; a failed one keeps the values in this browser) and Continue, which saves
 * what is left and moves to the DCC step or shows why the server refused it.
 */
export function useHeaderEditor(initial: Header, packageId: string, readOnly = false) {
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(headerEditorReducer, initial, initialEditorState);
  const [status, setStatus] = useState<SaveStatus>({ kind: 'idle' });
  const blank = hasBlank(state);

  // what the server holds, the values now, and the save under way (one at a time, in order)
  const saved = useRef(JSON.stringify(initial.fields));
  const latest = useRef<HeaderField[]>(initial.fields);
  latest.current = state.fields;
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stopped = useRef(false);

  /** Whether the values on screen differ from the server's (the Back button and a reload ask first). */
  const isDirty = useCallback(() => JSON.stringify(latest.current) !== saved.current, []);

  /** Sends the values now on screen, after any save under way; the answer of that save. */
  const send = useCallback(
    (background: boolean): Promise<{ result: SaveHeaderResult | null; fields: HeaderField[] }> => {
      const run = queue.current.then(async () => {
        const fields = latest.current;
        if (background && JSON.stringify(fields) === saved.current) return { result: null, fields };
        setStatus({ kind: 'saving' });
        const result = await saveHeader(packageId, { fields }, { background });
        if (result.ok) {
          saved.current = JSON.stringify(fields);
          dropUnsaved(packageId);
          setStatus(
            JSON.stringify(latest.current) === saved.current
              ? { kind: 'saved', at: new Date() }
              : { kind: 'pending' },
          );
        } else {
          const reason =
            result.status === 400 && result.headerErrors.length > 0
              ? 'the server refused the marked values'
              : isSessionExpired(result.status, result.errorMessage)
                ? 'your session ended; the values are kept in this browser until you sign in again'
                : result.errorMessage;
          setStatus({ kind: 'failed', reason });
          keepUnsaved(packageId, fields, reason);
        }
        return { result, fields };
      });
      queue.current = run.catch(() => undefined);
      return run;
    },
    [packageId],
  );

  /** What a refusal means on screen: errors on their rows, or the shared popups. */
  const showFailure = useCallback((result: SaveHeaderResult, fields: HeaderField[], background: boolean) => {
    if (result.ok) return;
    if (result.status === 400 && result.headerErrors.length > 0) {
      const { placed, unplaced } = placeErrors(fields, result.headerErrors);
      dispatch({ type: 'refused', errors: placed, refusal: { message: REFUSED, unplaced } });
      return;
    }
    if (result.status === 400) {
      dispatch({ type: 'refused', refusal: { message: result.errorMessage, unplaced: [] } });
      return;
    }
    if (isSessionExpired(result.status, result.errorMessage)) {
      stopped.current = true;
      expireSession();
      return;
    }
    // 403 not the initiator, 409 no longer a draft: nothing here can fix it
    if (result.status === 403 || result.status === 404 || result.status === 409) stopped.current = true;
    if (!background || stopped.current) showRefusal(result.status, result.errorMessage);
  }, []);

  const autosave = useCallback(async () => {
    if (stopped.current) return;
    const { result, fields } = await send(true);
    if (result && !result.ok) showFailure(result, fields, true);
  }, [send, showFailure]);

  // every change of the values schedules a save; the values the editor opened with do not
  // biome-ignore lint/correctness/useExhaustiveDependencies: state.fields is the trigger
  useEffect(() => {
    if (readOnly || stopped.current || !isDirty()) return;
    setStatus((s) => (s.kind === 'saving' ? s : { kind: 'pending' }));
    clearTimeout(timer.current);
    timer.current = setTimeout(autosave, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer.current);
  }, [state.fields, readOnly, autosave, isDirty]);

  /** Saves what is not saved yet, now (leaving the page); whether the server holds the values on screen. */
  const flush = useCallback(async (): Promise<boolean> => {
    clearTimeout(timer.current);
    if (!isDirty()) return true;
    const { result, fields } = await send(true);
    if (result && !result.ok) showFailure(result, fields, true);
    return !isDirty();
  }, [isDirty, send, showFailure]);

  const save = async () => {
    if (blank || state.saving) return;
    clearTimeout(timer.current);
    dispatch({ type: 'saving', saving: true });
    const { result, fields } = await send(false);
    dispatch({ type: 'saving', saving: false });
    if (!result) return;
    if (result.ok) {
      navigate(paths.packages.dcc);
      return;
    }
    showFailure(result, fields, false);
  };

  return {
    state,
    blank,
    save,
    status,
    isDirty,
    flush,
    restore: (header: Header) => dispatch({ type: 'restore', header }),
    typed: (path: string, target: ValueTarget, typed: Typed) =>
      dispatch({ type: 'typed', path, target, typed }),
    setValue: (path: string, target: ValueTarget, value: number) =>
      dispatch({ type: 'value', path, target, value }),
    setDraft: (path: string, draft: Draft | undefined) => dispatch({ type: 'draft', path, draft }),
    addEntry: (list: string) => dispatch({ type: 'addEntry', list }),
    deleteEntry: (list: string, index: number) => dispatch({ type: 'deleteEntry', list, index }),
  };
}

export type HeaderEditor = ReturnType<typeof useHeaderEditor>;
