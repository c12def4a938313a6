import { DCC_LIST } from '../../shared/domain/list-columns';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';
import { tableAnswer } from '../services/table-view';

export const handler = route('listDcc', async ({ query }) => {
  const { text, total } = tableAnswer(await packageService().listDcc(), query, DCC_LIST, 'DCCs');
  return { body: { dcc: text, ...(total !== undefined ? { total } : {}) } };
});
