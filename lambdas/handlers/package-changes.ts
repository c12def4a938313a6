import { MSG } from '../../shared/messages';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';
import { changesDigest } from '../services/packages/package-changes';

/** The changes since the last approved package for the same device and resource type. */
export const handler = route('packageChanges', async ({ params }) => {
  const changes = await packageService().changes(params.id);
  const message = changes.previous
    ? undefined
    : changes.deviceId === null
      ? MSG.changesNoDevice
      : MSG.noEarlierApproved;
  return {
    body: {
      changes: JSON.stringify(changes),
      previousPackageId: changes.previous?.id ?? null,
      digest: changesDigest(changes),
      ...(message ? { message } : {}),
    },
  };
});
