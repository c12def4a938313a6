import type { Dcc } from '@shared/api/contracts/dcc';
import type { Package } from '@shared/api/contracts/packages';
import type { Resource } from '@shared/api/contracts/resources';
import type { PublicUser } from '@shared/api/contracts/user';
import type { PackageTombstone } from '@shared/domain/package-deletion';
import { DCCS, MOCK_PASSWORD, PACKAGES, PENDING_USER, RESOURCES, USERS } from './fixtures';

/** The mock backend's state: copies of the fixtures that uploads, deletions and edits change. */
export interface MockDb {
  users: PublicUser[];
  passwords: Map<string, string>;
  /** token → user id */
  tokens: Map<string, string>;
  resources: Resource[];
  packages: Package[];
  dcc: Dcc[];
  uploads: Map<
    string,
    {
      name: string;
      resourceType: Resource['resourceType'];
      resourceStage: Resource['resourceStage'];
      fileName: string;
      sizeBytes: number;
      /** after confirm: the server's check (decision 173); the mock registers it at the second poll */
      polls?: number;
      resource?: string;
    }
  >;
  nextId: number;
  /** what is kept of packages an admin deleted (issue 23): a later link says who, when and why */
  tombstones: Map<string, PackageTombstone>;
}

function fresh(): MockDb {
  return {
    // the fixtures' users are confirmed and granted; one more waits for an admin (issue 12)
    users: [
      ...USERS.map((u) => ({ ...u, roleStatus: 'GRANTED' as const, emailConfirmed: true })),
      { ...PENDING_USER },
    ],
    passwords: new Map([...USERS, PENDING_USER].map((u) => [u.id, MOCK_PASSWORD])),
    tokens: new Map([...USERS, PENDING_USER].map((u) => [mockToken(u.id), u.id])),
    resources: RESOURCES.map((r) => ({ ...r })),
    packages: PACKAGES.map((p) => ({ ...p })),
    dcc: DCCS.map((d) => ({ ...d })),
    uploads: new Map(),
    nextId: 1,
    tombstones: new Map(),
  };
}

/** The token the mock backend hands out at login for a user (tests use it to start signed in). */
export function mockToken(userId: string): string {
  return `mock-token-${userId}`;
}

export const db: MockDb = fresh();

export function resetMockDb(): void {
  Object.assign(db, fresh());
}
