import type { ApprovalPolicy, Party, RoundPolicy } from './approval-policy-shape';
import { PACKAGE_TYPES } from './model/package';
import { NON_ADMIN_ROLES, type NonAdminRole } from './roles';
import type { RoundName } from './voting-rounds';

/**
 * The committed approval policies, by name (docs/approval-policy.md, decision 338). A stage selects one
 * (`approvalPolicy` in infra/stages.ts, checked at synth); the Lambdas and the local stack read its name
 * from the environment variable `APPROVAL_POLICY` and the SPA from config.json. Unset: `spec`, the
 * product specification's rules. Every policy is checked when the module loads, so a wrong one fails
 * every process (synth, tests, the local stack) with a message naming what is wrong.
 */

const EVERY_ROLE = NON_ADMIN_ROLES;
const byType = <T>(v: T) =>
  ({ DEV_UNSIGNED: v, DEV_SIGNED: v, RELEASE_UNSIGNED: v, RELEASE_SIGNED: v }) as const;

/** The specification's rules: every role approves, in any order (spec §5, §6; decisions 225, 332). */
export const SPEC_POLICY: ApprovalPolicy = {
  rounds: {
    approval: {
      roles: byType(EVERY_ROLE),
      // decision 332: four for release (spec §5, §9), a second pair of eyes for development
      minRoles: { DEV_UNSIGNED: 2, DEV_SIGNED: 2, RELEASE_UNSIGNED: 4, RELEASE_SIGNED: 4 },
      excluded: ['initiator', 'uploader'],
      approvesAfter: {},
    },
    delivery: {
      // only a signed release package is delivered (decision 193); the others are listed for completeness
      roles: byType(EVERY_ROLE),
      // decision 332: every role but the initiator's and the deliverer's in a team of one per role
      minRoles: byType(3),
      excluded: ['initiator', 'starter', 'uploader'],
      approvesAfter: {},
    },
  },
  signer: {
    role: 'SW_FW_RELEASE_ENGINEER',
    round: 'approval',
    excluded: ['initiator', 'uploader'],
    mayAlsoApprove: true,
  },
  deliverer: { role: 'SW_FW_RELEASE_ENGINEER' },
  voterKeepsRole: true,
};

/**
 * "The Technical Leader approves last": in the approval round the Leader approves once every other
 * chosen approver approved (a rejection may come any time). The delivery round is unchanged.
 */
export const TECHNICAL_LEADER_LAST: ApprovalPolicy = {
  ...SPEC_POLICY,
  rounds: {
    ...SPEC_POLICY.rounds,
    approval: {
      ...SPEC_POLICY.rounds.approval,
      approvesAfter: { TECHNICAL_LEADER: EVERY_ROLE.filter((r) => r !== 'TECHNICAL_LEADER') },
    },
  },
};

/** Every committed policy by the name a stage (or `APPROVAL_POLICY`) selects it with. */
export const APPROVAL_POLICIES = {
  spec: SPEC_POLICY,
  'technical-leader-last': TECHNICAL_LEADER_LAST,
} as const satisfies Record<string, ApprovalPolicy>;

export type ApprovalPolicyName = keyof typeof APPROVAL_POLICIES;
export const APPROVAL_POLICY_NAMES = Object.keys(APPROVAL_POLICIES) as ApprovalPolicyName[];
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicyName = 'spec';

const PARTIES: readonly Party[] = ['initiator', 'starter', 'uploader'];
const isRole = (r: unknown): r is NonAdminRole => (NON_ADMIN_ROLES as readonly unknown[]).includes(r);

/** The roles of `after` that wait, directly or not, for themselves (a cycle: nobody could approve). */
function cycleIn(after: RoundPolicy['approvesAfter']): string[] | null {
  const edges = after as Readonly<Record<string, readonly string[] | undefined>>;
  const visit = (role: string, path: string[]): string[] | null => {
    if (path.includes(role)) return [...path.slice(path.indexOf(role)), role];
    for (const next of edges[role] ?? []) {
      const found = visit(next, [...path, role]);
      if (found) return found;
    }
    return null;
  };
  for (const role of Object.keys(edges)) {
    const found = visit(role, []);
    if (found) return found;
  }
  return null;
}

/**
 * What is wrong with a policy, each problem naming where (empty: none). Checks what the types cannot:
 * roles that exist, minimums a round can meet, parties that exist, an order without a cycle whose
 * roles the round lists.
 */
export function approvalPolicyProblems(policy: ApprovalPolicy): string[] {
  const problems: string[] = [];
  for (const round of ['approval', 'delivery'] as const satisfies readonly RoundName[]) {
    const r = policy.rounds[round];
    for (const type of PACKAGE_TYPES) {
      const roles = r.roles[type] ?? [];
      for (const role of roles.filter((x) => !isRole(x)))
        problems.push(`${round} round, ${type}: unknown role '${role}'`);
      const min = r.minRoles[type];
      if (!Number.isInteger(min) || min < 1)
        problems.push(
          `${round} round, ${type}: the minimum of roles must be a whole number from 1, got ${min}`,
        );
      else if (min > new Set(roles).size)
        problems.push(
          `${round} round, ${type}: the minimum of ${min} roles is above the ${new Set(roles).size} roles that approve`,
        );
    }
    for (const party of r.excluded.filter((x) => !PARTIES.includes(x)))
      problems.push(`${round} round: unknown excluded party '${party}'`);
    const listed = new Set(PACKAGE_TYPES.flatMap((t) => r.roles[t] ?? []));
    for (const [role, before] of Object.entries(r.approvesAfter)) {
      if (!isRole(role) || !listed.has(role))
        problems.push(`${round} round order: '${role}' is not a role that approves in this round`);
      for (const b of before ?? [])
        if (!isRole(b) || !listed.has(b))
          problems.push(
            `${round} round order: '${role}' approves after '${b}', not a role that approves in this round`,
          );
    }
    const cycle = cycleIn(r.approvesAfter);
    if (cycle) problems.push(`${round} round order has a cycle: ${cycle.join(' → ')} (nobody could approve)`);
  }
  if (!isRole(policy.signer.role)) problems.push(`signer: unknown role '${policy.signer.role}'`);
  for (const party of policy.signer.excluded.filter((x) => !PARTIES.includes(x)))
    problems.push(`signer: unknown excluded party '${party}'`);
  if (!isRole(policy.deliverer.role)) problems.push(`deliverer: unknown role '${policy.deliverer.role}'`);
  return problems;
}

/** A policy by name, checked; an unknown name or a wrong policy throws naming what is wrong. */
export function approvalPolicyNamed(name: string | undefined): ApprovalPolicy {
  const chosen = name === undefined || name === '' ? DEFAULT_APPROVAL_POLICY : name;
  if (!Object.hasOwn(APPROVAL_POLICIES, chosen))
    throw new Error(
      `Unknown approval policy '${chosen}' (APPROVAL_POLICY / the stage's approvalPolicy): choose one of ${APPROVAL_POLICY_NAMES.join(', ')}`,
    );
  const policy = APPROVAL_POLICIES[chosen as ApprovalPolicyName];
  const problems = approvalPolicyProblems(policy);
  if (problems.length > 0) throw new Error(`Approval policy '${chosen}' is wrong: ${problems.join('; ')}`);
  return policy;
}

/**
 * The name of the policy this process runs: the environment variable `APPROVAL_POLICY` (Lambdas, the
 * local stack, the test runner's second pass), else the default. The SPA has no environment: it reads
 * the name from config.json (web/src/config/approval-policy.ts).
 */
export function approvalPolicyNameFromEnv(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.APPROVAL_POLICY;
}
