import { Alert } from '@aws-amplify/ui-react';
import { roleLabel } from '@shared/domain/roles';
import { BrandHero } from '@/components/ui/brand-hero';
import { useSession } from '@/lib/session/session-store';
import { WorkWaiting } from './work-waiting';

/**
 * Spec §2.2 home: the slogan and a large logo; above them, whether the role still waits;
 * below them, what waits for the user.
 */
export function HomePage() {
  const { user } = useSession();
  const status = user?.userRole === 'ADMIN' ? 'GRANTED' : user?.roleStatus;
  return (
    <>
      {user && status === 'REQUESTED' ? (
        <Alert variation="info" role="status" marginBottom="1rem">
          {`Your role ${roleLabel(user.userRole)} waits for an administrator's approval. Until then you can read, but not upload, create, approve, sign or deliver.`}
        </Alert>
      ) : null}
      {user && status === 'REFUSED' ? (
        <Alert variation="warning" role="status" marginBottom="1rem">
          {`An administrator refused your role ${roleLabel(user.userRole)}. Choose another role in Settings, or talk to an administrator.`}
        </Alert>
      ) : null}
      <BrandHero />
      {user ? <WorkWaiting user={user} decides={status !== 'REQUESTED' && status !== 'REFUSED'} /> : null}
    </>
  );
}
