import type { Package } from '@shared/api/contracts/packages';
import type { Resource } from '@shared/api/contracts/resources';
import type { RoleStatus } from '@shared/domain/identity';
import type { Role } from '@shared/domain/roles';
import { useSyncExternalStore } from 'react';

/** Spec §4.1: the flow a package screen serves; it picks the page header. */
export type FlowPurpose = 'dev' | 'release' | 'delivery' | 'approve' | 'sign' | 'approve-delivery';

/** Navigation tabs of both layouts (spec §2.3, §2.4). */
export type NavTab =
  | 'packages'
  | 'patches'
  | 'models'
  | 'approval'
  | 'signing'
  | 'upload'
  | 'admin-packages'
  | 'admin-dcc'
  | 'admin-users'
  | 'admin-resources'
  | 'admin-audit';

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  userRole: Role;
  /** GRANTED, REQUESTED or REFUSED (absent from older answers) */
  roleStatus?: RoleStatus;
  /** a new address waiting for its confirmation link */
  pendingEmail?: string;
  /** made by a company sign-in: no portal password to change or to sign with (decision 317) */
  passwordless?: true;
  /** a company identity signs in as this account: a fresh sign-in there confirms a signature (decision 368) */
  companyLinked?: true;
}

/** Client session state of spec §3, kept in session storage under one key. */
export interface SessionState {
  user: SessionUser | null;
  resource: Resource | null;
  currentPackage: Package | null;
  isAuthenticated: boolean;
  flowPurpose: FlowPurpose;
  subHeader: string;
  admin: boolean;
  selectedTab: NavTab | null;
  /**
   * signed in with a temporary (reset) or one-time (admin:create) password: the password form is
   * all the user may use until it is changed
   */
  mustChangePassword: boolean;
}

export const SESSION_KEY = 'frp.session';

const initialState: SessionState = {
  user: null,
  resource: null,
  currentPackage: null,
  isAuthenticated: false,
  flowPurpose: 'dev',
  subHeader: '',
  admin: false,
  selectedTab: null,
  mustChangePassword: false,
};

function load(): SessionState {
  try {
    const raw = sessionStorage.getItem(SESSION_KEY);
    if (!raw) return initialState;
    const parsed = JSON.parse(raw) as Partial<SessionState>;
    return { ...initialState, ...parsed };
  } catch {
    return initialState;
  }
}

let state: SessionState = load();
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export const session = {
  get: (): SessionState => state,
  update(patch: Partial<SessionState>): void {
    state = { ...state, ...patch };
    sessionStorage.setItem(SESSION_KEY, JSON.stringify(state));
    emit();
  },
  /** Spec §4.7 log out: flags, user and current package cleared, the stored session removed. */
  clear(): void {
    state = initialState;
    sessionStorage.removeItem(SESSION_KEY);
    emit();
  },
  /** Re-read session storage (tests, and a second tab restoring). */
  reload(): void {
    state = load();
    emit();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

/**
 * Signs the user in on this client: the user, the flags, and the admin flag from the role;
 * `mustChangePassword` when the server said so (left as it was when not given).
 */
export function signIn(user: SessionUser, mustChangePassword?: boolean): void {
  session.update({
    user,
    isAuthenticated: true,
    admin: user.userRole === 'ADMIN',
    ...(mustChangePassword === undefined ? {} : { mustChangePassword }),
  });
}

/** A non-admin whose role an admin has not granted (requested or refused): it sees its settings only. */
export function awaitsGrant(user: SessionUser | null): boolean {
  return (
    user !== null &&
    user.userRole !== 'ADMIN' &&
    user.roleStatus !== undefined &&
    user.roleStatus !== 'GRANTED'
  );
}

/** what the signed-in user may open is only their settings (a password to change, or no grant). */
export function settingsOnly(s: Pick<SessionState, 'user' | 'mustChangePassword'>): boolean {
  return s.mustChangePassword || awaitsGrant(s.user);
}
