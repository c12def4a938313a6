import { DCC_LIST } from '../../shared/domain/list-columns';
import { packageService } from '../composition-packages';
import { route } from '../routes/admin';
import { tableAnswer } from '../services/table-view';

export const handler = route('adminListDcc', async ({ query }) => {
  const { text, total } = tableAnswer(await packageService().listDcc(), query, DCC_LIST, 'DCCs');
  return { body: { dcc: text, ...(total !== undefined ? { total } : {}) } };
});
