import { provenanceService } from '../composition-provenance';
import { route } from '../routes/provenance';

/** Attach a resource's build provenance and/or SBOM, once each. */
export const handler = route('attachProvenance', async ({ params, body, user }) => {
  const resource = await provenanceService().attach(user, params.id, body);
  return { body: { resource: JSON.stringify(resource) } };
});
