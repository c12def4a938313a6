import { proofOf } from '../../shared/api/contracts/packages';
import { MSG } from '../../shared/messages';
import { packageServiceWithJobs } from '../composition-jobs';
import { route } from '../routes/packages';

/** The signature is recorded now; the signed XML is generated off the request path (202 GENERATING, decision 160). */
export const handler = route('signPackage', async ({ params, body, user, sourceIp }) => {
  const pkg = await packageServiceWithJobs().sign(user, params.id, {
    proof: proofOf(body),
    sourceIp,
    changesSeen: body.changesSeen,
  });
  return {
    statusCode: 202,
    body: { outcome: 'GENERATING', message: MSG.generating, package: JSON.stringify(pkg) },
  };
});
