import { companySignOn, route } from '../routes/company-sign-on';

export const handler = route('startCompanySignOn', async ({ sourceIp }) => ({
  body: await (await companySignOn()).start(sourceIp),
}));
