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
  | 'admin-resources';

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  userRole: Role;
  /** issue 12: GRANTED, REQUESTED or REFUSED (absent from older answers) */
  roleStatus?: RoleStatus;
  /** a new address waiting for its confirmation link */
  pendingEmail?: string;
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

/** Signs the user in on this client: the user, the flags, and the admin flag from the role. */
export function signIn(user: SessionUser): void {
  session.update({ user, isAuthenticated: true, admin: user.userRole === 'ADMIN' });
}
