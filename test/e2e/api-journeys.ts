import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { apiUrl, mailsTo } from './support';

/**
 * The API steps journeys start from (people, grants, a package waiting for someone's approval), over HTTP
 * against the journey's stack: what is not the story of a test is set up here, not clicked through.
 */

export const unique = (p: string) =>
  `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export async function call<T = Record<string, string>>(
  path: string,
  token: string | null,
  init: RequestInit = {},
) {
  const r = await fetch(apiUrl(path), {
    ...init,
    headers: {
      ...(typeof init.body === 'string' ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
  });
  const body = (await r.json()) as T & { errorMessage?: string };
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
  return body;
}
export const post = (path: string, token: string | null, body: unknown) =>
  call(path, token, { method: 'POST', body: JSON.stringify(body) });
export const tokenOf = async (email: string, password = SEED_PASSWORD) =>
  (await post('/user/login', null, { login: email, password })).token!;

/** The two seeded admins grant the role `userId` asked for (one proposes, the second confirms). */
export async function grantByTwoAdmins(userId: string) {
  for (const admin of ['admin@example.com', 'admin-2@example.com'])
    await post('/admin/users/roles', await tokenOf(admin), { grant: [userId], password: SEED_PASSWORD });
}

/** A new Technical Leader, registered, confirmed by the mailed link and granted by the two seeded admins. */
export async function newcomer(password: string, name = 'Pat Passkey') {
  const email = `${unique(name.toLowerCase().replaceAll(' ', '-'))}@example.com`;
  const user = JSON.parse(
    (
      await post('/user/register', null, {
        name,
        email,
        password,
        userRole: 'TECHNICAL_LEADER',
      })
    ).user!,
  ) as { id: string };
  const token = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec((await mailsTo(email)).at(-1)?.text ?? '')?.[1];
  await post('/user/confirm-email', null, { token, password });
  await grantByTwoAdmins(user.id);
  return { id: user.id, email, name };
}

/** A development package of the seeded design engineer, sent for approval with `approverId` as Technical Leader. */
export async function packageFor(approverId: string, note = 'Approved with a passkey') {
  const dev = await tokenOf('design-engineer-dev@example.com');
  const patch = unique('passkey-patch');
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(4096).fill(3)]), `${patch}.bin`);
  const res = JSON.parse(
    (await call(`/resources/patch/dev?name=${patch}`, dev, { method: 'POST', body: form })).resource!,
  ) as { id: string };
  const pkg = JSON.parse(
    (
      await post(`/resources/${res.id}/generate-package`, dev, {
        packageName: unique('Passkey approval'),
        packageType: 'DEV_UNSIGNED',
        note,
      })
    ).package!,
  ) as { id: string; name: string };
  const dcc = (
    await post('/dcc', dev, {
      deviceId: unique('PK-DEV'),
      telemetryType: 'TelB',
      messageLimit: 64,
      deviceLimit: 4096,
    })
  ).dccUuid;
  await call(`/packages/${pkg.id}/dcc/${dcc}`, dev, { method: 'POST' });
  const candidates = JSON.parse((await call(`/packages/${pkg.id}/approvers`, dev)).approvers!) as Record<
    string,
    { id: string }[]
  >;
  await post(`/packages/${pkg.id}/notify-approvers`, dev, {
    approvers: Object.entries(candidates).map(([role, users]) => ({
      role,
      id: role === 'TECHNICAL_LEADER' ? approverId : users[0]!.id,
    })),
  });
  return pkg;
}
