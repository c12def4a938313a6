import { proofOf } from '../../shared/api/contracts/packages';
import { MSG } from '../../shared/messages';
import { packageServiceWithJobs } from '../composition-jobs';
import { route } from '../routes/packages';

/**
 * Outcomes (DESIGN §2): WAITING_FOR_APPROVALS 202, WAITING_FOR_SIGNING 200, and on the last approval of
 * an unsigned package GENERATING 202: the XML is generated off the request path (decision 160); the
 * package carries the generation's progress and becomes APPROVED with `linkToS3` once it is ready.
 */
export const handler = route('approvePackage', async ({ params, body, user, sourceIp }) => {
  const sig = { proof: proofOf(body), sourceIp, changesSeen: body.changesSeen };
  const { outcome, pkg } = await packageServiceWithJobs().approve(user, params.id, sig);
  if (outcome === 'WAITING_FOR_APPROVALS') {
    return { statusCode: 202, body: { outcome, message: MSG.approvedWaiting, package: JSON.stringify(pkg) } };
  }
  if (outcome === 'WAITING_FOR_SIGNING') {
    return { body: { outcome, message: MSG.approvedWaitingSigning, package: JSON.stringify(pkg) } };
  }
  if (outcome === 'GENERATING') {
    return { statusCode: 202, body: { outcome, message: MSG.generating, package: JSON.stringify(pkg) } };
  }
  return { body: { outcome, generatedXmlS3Link: pkg.linkToS3, package: JSON.stringify(pkg) } };
});
