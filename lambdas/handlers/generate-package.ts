// with object storage: a model uploaded before its metadata digest was recorded is pinned by reading its
// metadata file once (decision 190)
import { packageServiceWithResourceReads } from '../composition-storage';
import { route } from '../routes/resources';

export const handler = route('generatePackage', async ({ params, body, user }) => {
  const pkg = await packageServiceWithResourceReads().generate(user, params.id, body);
  return { statusCode: 201, body: { package: JSON.stringify(pkg) } };
});
