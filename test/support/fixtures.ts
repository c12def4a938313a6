import { randomBytes } from 'node:crypto';
import type { Package } from '../../shared/api/contracts/packages';
import type { Resource } from '../../shared/api/contracts/resources';
import { api, jsonText, login, SEEDED, uniq } from './api';
import { settled } from './uploads';

export interface Users {
  [k: string]: { token: string; id: string; email: string };
}

/** Tokens and ids of the seeded users. */
export async function seededUsers(): Promise<
  Record<keyof typeof SEEDED, { token: string; id: string; email: string }>
> {
  const out = {} as Record<keyof typeof SEEDED, { token: string; id: string; email: string }>;
  for (const k of Object.keys(SEEDED) as (keyof typeof SEEDED)[]) out[k] = await seededUser(k);
  return out;
}

/** Token and id of one seeded user (each sign-in costs a deliberately slow scrypt hash). */
export async function seededUser(
  k: keyof typeof SEEDED,
): Promise<{ token: string; id: string; email: string }> {
  const email = SEEDED[k];
  const token = await login(email);
  const me = await api<{ user: string }>('/user/auth', { method: 'POST', token });
  return { token, id: jsonText<{ id: string }>(me.body.user).id, email };
}

/** Uploads a patch of `size` random bytes through the multipart call; returns the stored resource. */
export async function uploadPatch(
  token: string,
  stage: 'dev' | 'release',
  size = 2048,
  name = uniq('patch'),
) {
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(randomBytes(size))]), `${name}.bin`);
  const r = await api<{ resource: string }>(`/resources/patch/${stage}?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    token,
    body: form,
  });
  if (r.status !== 201) throw new Error(`upload failed: ${r.status} ${JSON.stringify(r.body)}`);
  return jsonText<Resource>(r.body.resource);
}

/**
 * Uploads a patch of `size` random bytes the way the SPA sends files too large for the API (a direct
 * multipart call over ~4 MiB no longer fits Lambda's 6 MB event once base64-encoded): upload ticket,
 * PUT to the presigned URL, confirm (202) and wait until it is registered. Returns the stored resource.
 */
export async function uploadPatchPresigned(
  token: string,
  stage: 'dev' | 'release',
  size: number,
  name = uniq('patch'),
) {
  const ticket = await api<{ uploadId: string; resourceUrl: string }>('/resources/uploads', {
    method: 'POST',
    token,
    body: {
      name,
      resourceType: 'PATCH',
      resourceStage: stage.toUpperCase(),
      fileName: `${name}.bin`,
      sizeBytes: size,
    },
  });
  if (ticket.status !== 201)
    throw new Error(`upload ticket: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const put = await fetch(ticket.body.resourceUrl, {
    method: 'PUT',
    body: new Uint8Array(randomBytes(size)),
  });
  await put.arrayBuffer();
  if (put.status !== 200) throw new Error(`presigned PUT: ${put.status}`);
  const accepted = await api(`/resources/uploads/${ticket.body.uploadId}/confirm`, { method: 'POST', token });
  const done = await settled(token, accepted);
  if (done.state !== 'REGISTERED') throw new Error(`upload ${done.state}: ${done.errorMessage}`);
  return jsonText<Resource>(done.resource);
}

export async function createPackage(
  token: string,
  resourceId: string,
  packageType: string,
  name = uniq('pkg'),
) {
  const r = await api<{ package: string }>(`/resources/${resourceId}/generate-package`, {
    method: 'POST',
    token,
    body: { packageName: `  ${name}  `, packageType, note: 'Fixes the pump occlusion alarm threshold' },
  });
  if (r.status !== 201) throw new Error(`generate failed: ${r.status} ${JSON.stringify(r.body)}`);
  return jsonText<Package>(r.body.package);
}

export async function createDcc(token: string, deviceId = uniq('device')) {
  const r = await api<{ dccUuid: string }>('/dcc', {
    method: 'POST',
    token,
    body: { deviceId, telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
  });
  if (r.status !== 201) throw new Error(`dcc failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.dccUuid;
}

/** A minimal TensorFlow Lite file: a flatbuffer root offset, then the TFL3 identifier at bytes 4..7. */
export const tfliteModel = (size = 2048): Buffer =>
  Buffer.concat([Buffer.from([0x1c, 0, 0, 0]), Buffer.from('TFL3'), randomBytes(Math.max(0, size - 8))]);

/** Uploads a model (.tflite + metadata .json) through the multipart call; returns the stored resource. */
export async function uploadModel(
  token: string,
  stage: 'dev' | 'release',
  opts: { size?: number; metadata?: string; name?: string } = {},
) {
  const name = opts.name ?? uniq('model');
  const metadata = opts.metadata ?? JSON.stringify({ modelName: 'keyword-spotter', version: '1.4.2' });
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(tfliteModel(opts.size))]), `${name}.tflite`);
  form.append('metadataFile', new Blob([metadata]), `${name}.json`);
  const r = await api<{ resource: string }>(`/resources/model/${stage}?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    token,
    body: form,
  });
  if (r.status !== 201) throw new Error(`upload failed: ${r.status} ${JSON.stringify(r.body)}`);
  return jsonText<Resource>(r.body.resource);
}
