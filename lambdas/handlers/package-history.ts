import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

/** The audit trail of a package, oldest first, with the verdict of its hash chain. */
export const handler = route('packageHistory', async ({ params }) => {
  const { events, brokenAtSeq } = await packages$().history(params.id);
  return { body: { history: JSON.stringify(events), chainIntact: brokenAtSeq === null, brokenAtSeq } };
});
