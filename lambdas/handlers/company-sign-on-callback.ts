import { callbackBody, companySignOn, route } from '../routes/company-sign-on';

export const handler = route('companySignOnCallback', async ({ body, sourceIp }) => ({
  body: callbackBody(await (await companySignOn()).callback(body.search, body.binding, sourceIp)),
}));
