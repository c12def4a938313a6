import { callbackBody, companySignOn, route } from '../routes/company-sign-on';

export const handler = route('linkCompanyIdentity', async ({ body, sourceIp }) => {
  const r = callbackBody(
    await (await companySignOn()).linkWithPassword(body.linkTicket, body.password, sourceIp),
  );
  if (r.outcome !== 'SIGNED_IN') throw new Error('a link with the password ends in a session');
  return { body: r };
});
