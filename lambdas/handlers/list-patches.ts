import { RESOURCE_LIST } from '../../shared/domain/list-columns';
import { resourceService } from '../composition';
import { route } from '../routes/resources';
import { tableAnswer } from '../services/table-view';

export const handler = route('listPatches', async ({ params, query }) => {
  const list = await resourceService().list('PATCH', params.stage);
  const { text, total } = tableAnswer(list, query, RESOURCE_LIST, 'resources');
  return { body: { resources: text, ...(total !== undefined ? { total } : {}) } };
});
