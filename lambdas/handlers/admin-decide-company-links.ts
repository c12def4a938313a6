import { companySignOn, route } from '../routes/company-sign-on';

export const handler = route('adminDecideCompanyLinks', async ({ user, body, sourceIp }) => {
  const outcomes = await (await companySignOn()).decideLinks(user, body, sourceIp);
  const n = Object.keys(outcomes).length;
  return {
    body: { status: 'DECIDED', message: `${n} account${n === 1 ? '' : 's'} decided`, outcomes },
  };
});
