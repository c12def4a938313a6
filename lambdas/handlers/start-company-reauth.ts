import { companySignOn, route } from '../routes/company-sign-on';

export const handler = route('startCompanyReauth', async ({ user, sourceIp }) => ({
  body: await (await companySignOn()).start(sourceIp, user),
}));
