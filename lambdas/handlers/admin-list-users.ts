import { USER_LIST } from '../../shared/domain/list-columns';
import { loadUserService } from '../composition';
import { route } from '../routes/identity';
import { tableAnswer } from '../services/table-view';

export const handler = route('adminListUsers', async ({ query }) => {
  const list = await (await loadUserService()).listUsers();
  const { text, total } = tableAnswer(list, query, USER_LIST, 'users');
  return { body: { users: text, ...(total !== undefined ? { total } : {}) } };
});
