import type { Role } from './roles';

/**
 * One user per role, created on a new local data folder (never in AWS), and a second admin: a grant takes
 * two admins (decision 180), so a fresh local stack can grant.
 */
export const SEED_USERS: readonly { name: string; email: string; role: Role }[] = [
  { name: 'Dana Dev', email: 'design-engineer-dev@example.com', role: 'DESIGN_ENGINEER_DEV' },
  { name: 'Tess Tester', email: 'design-engineer-test@example.com', role: 'DESIGN_ENGINEER_TEST' },
  { name: 'Riley Reliability', email: 'reliability-engineer@example.com', role: 'RELIABILITY_ENGINEER' },
  { name: 'Sam Release', email: 'sw-fw-release-engineer@example.com', role: 'SW_FW_RELEASE_ENGINEER' },
  { name: 'Terry Lead', email: 'technical-leader@example.com', role: 'TECHNICAL_LEADER' },
  { name: 'Ada Admin', email: 'admin@example.com', role: 'ADMIN' },
  { name: 'Abe Admin', email: 'admin-2@example.com', role: 'ADMIN' },
];

/** The local password of every seeded user (local stack only). */
export const SEED_PASSWORD = 'Local-Dev-1234';
