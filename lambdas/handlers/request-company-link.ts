import { companySignOn, route } from '../routes/company-sign-on';

export const handler = route('requestCompanyLink', async ({ body }) => {
  const { message } = await (await companySignOn()).requestLink(body.linkTicket);
  return { body: { status: 'REQUESTED', message } };
});
