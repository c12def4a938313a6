import type { Header } from '@shared/domain/header/header-schema';
import { useReducer } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { showRefusal } from '@/lib/popup/popup-store';
import { saveHeader } from '../api/header';
import {
  type Draft,
  hasBlank,
  headerEditorReducer,
  initialEditorState,
  placeErrors,
  type Typed,
  type ValueTarget,
} from '../utils/header-editor-state';

/**
 * The header editor of one loaded header (spec §2.8, §3, §5): its state (utils/header-editor-state.ts)
 * and Continue, which saves the header and moves to the DCC step or shows why the server refused it.
 */
export function useHeaderEditor(initial: Header, packageId: string) {
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(headerEditorReducer, initial, initialEditorState);
  const blank = hasBlank(state);

  const save = async () => {
    if (blank || state.saving) return;
    const { fields } = state;
    dispatch({ type: 'saving', saving: true });
    const result = await saveHeader(packageId, { fields });
    dispatch({ type: 'saving', saving: false });
    if (result.ok) {
      navigate(paths.packages.dcc);
      return;
    }
    if (result.status === 400 && result.headerErrors.length > 0) {
      const { placed, unplaced } = placeErrors(fields, result.headerErrors);
      dispatch({
        type: 'refused',
        errors: placed,
        refusal: {
          message: 'The server refused the header. Correct the marked fields and continue again.',
          unplaced,
        },
      });
      return;
    }
    if (result.status === 400) {
      dispatch({ type: 'refused', refusal: { message: result.errorMessage, unplaced: [] } });
      return;
    }
    // 403 not the initiator, 409 no longer a draft: nothing here can fix it
    showRefusal(result.status, result.errorMessage);
  };

  return {
    state,
    blank,
    save,
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
