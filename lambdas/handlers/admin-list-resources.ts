import { ADMIN_RESOURCE_LIST } from '../../shared/domain/list-columns';
import { resourceService } from '../composition';
import { route } from '../routes/admin';
import { tableAnswer } from '../services/table-view';

export const handler = route('adminListResources', async ({ query }) => {
  const list = await resourceService().listAll();
  const { text, total } = tableAnswer(list, query, ADMIN_RESOURCE_LIST, 'resources');
  return { body: { resources: text, ...(total !== undefined ? { total } : {}) } };
});
