/** Role codes of spec §6, in the order the product lists them. */
export const ROLES = [
  'DESIGN_ENGINEER_DEV',
  'DESIGN_ENGINEER_TEST',
  'TECHNICAL_LEADER',
  'RELIABILITY_ENGINEER',
  'SW_FW_RELEASE_ENGINEER',
  'ADMIN',
] as const;

export type Role = (typeof ROLES)[number];

/** Roles a person may choose for themselves (spec §6: admin cannot be chosen by self-service). */
export const SELF_SERVICE_ROLES = ROLES.filter((r) => r !== 'ADMIN') as Exclude<Role, 'ADMIN'>[];

export type NonAdminRole = Exclude<Role, 'ADMIN'>;

export const NON_ADMIN_ROLES: readonly NonAdminRole[] = SELF_SERVICE_ROLES;

export const UPLOADER_ROLES: readonly Role[] = ['DESIGN_ENGINEER_DEV', 'DESIGN_ENGINEER_TEST'];

export const ROLE_LABELS: Record<Role, string> = {
  DESIGN_ENGINEER_DEV: 'Design Engineer (dev)',
  DESIGN_ENGINEER_TEST: 'Design Engineer (test)',
  TECHNICAL_LEADER: 'Technical Leader',
  RELIABILITY_ENGINEER: 'Reliability Engineer',
  SW_FW_RELEASE_ENGINEER: 'SW/FW Release Engineer',
  ADMIN: 'Admin',
};

/** Label of a role code; an unknown role is displayed as Technical Leader (spec §6). */
export function roleLabel(code: string): string {
  return (ROLE_LABELS as Record<string, string>)[code] ?? ROLE_LABELS.TECHNICAL_LEADER;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
