import { openApiDocument } from '../../shared/api/openapi';
import { route } from '../routes/api-docs';

/** The API described for build pipelines and device teams (OpenAPI 3.1), made once per instance. */
let document: ReturnType<typeof openApiDocument> | undefined;

export const handler = route('openapi', async () => {
  document ??= openApiDocument();
  return { body: document };
});
