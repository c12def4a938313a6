import { Alert, Button, Flex } from '@aws-amplify/ui-react';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { paths } from '@/config/paths';
import { type NavTab, session } from '@/lib/session/session-store';
import { getPackageDetails } from '../api/package-lists';
import { openTarget } from '../utils/package-flow';
import { PackagePage } from './package-page';

/** The navigation tab of the list the opened page belongs to. */
const TAB_OF: Record<ReturnType<typeof openTarget>['flow'], NavTab> = {
  approve: 'approval',
  'approve-delivery': 'approval',
  sign: 'signing',
  dev: 'packages',
  release: 'packages',
  delivery: 'packages',
};

/**
 * /packages/open/{id}, the link of every workflow mail and of the home page's "Waiting for
 * you". Loads the package and what it waits for from this user (the server decides), leaves the session
 * as a click in that list would (current package, subheader, flow) and opens the same detail page. A
 * signed-out visitor comes here after sign-in (the guard keeps the path in /login?next=…).
 */
export function PackageOpenPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setProblem(null);
    getPackageDetails(id, controller.signal).then((r) => {
      if (controller.signal.aborted) return;
      // a 401 or 5xx went to the shared popups (spec §8); an unknown or refused package is said here
      if (!r.ok) {
        if ([400, 403, 404].includes(r.status)) setProblem(r.error.errorMessage);
        return;
      }
      const { pkg, waitingFor } = r.data;
      if (!pkg) {
        setProblem('The server answered without the package; please try again');
        return;
      }
      const target = openTarget(pkg, waitingFor);
      session.update({
        currentPackage: pkg,
        subHeader: target.subHeader,
        flowPurpose: target.flow,
        selectedTab: TAB_OF[target.flow],
      });
      navigate(target.path, { replace: true });
    });
    return () => controller.abort();
  }, [id, navigate]);

  return (
    <PackagePage id="package-open-title" title="Package">
      {problem ? (
        <Flex direction="column" gap="1rem" alignItems="flex-start">
          <Alert variation="warning" role="alert">
            {`This link opens no package: ${problem.replace(/\.$/, '')}.`}
          </Alert>
          <Flex gap="0.75rem">
            <Button onClick={() => navigate(paths.home)}>To home page</Button>
            <Button variation="primary" onClick={() => navigate(paths.packages.list)}>
              To the package list
            </Button>
          </Flex>
        </Flex>
      ) : (
        <p role="status">Opening the package…</p>
      )}
    </PackagePage>
  );
}
