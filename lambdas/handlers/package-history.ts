import { packageIdParamSchema } from '../../shared/api/contracts/packages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

/** The audit trail of a package, oldest first, with the verdict of its hash chain. */
export const handler = route('packageHistory', { params: packageIdParamSchema }, async ({ params }) => {
  const { events, brokenAtSeq } = await packageService().history(params.id);
  return { body: { history: JSON.stringify(events), chainIntact: brokenAtSeq === null, brokenAtSeq } };
});
