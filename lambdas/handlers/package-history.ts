import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** The audit trail of a package, oldest first, with the verdict of its hash chain. */
export const handler = route('packageHistory', async ({ params }) => {
  const { events, brokenAtSeq } = await packageService().history(params.id);
  return { body: { history: JSON.stringify(events), chainIntact: brokenAtSeq === null, brokenAtSeq } };
});
