import { randomBytes } from 'node:crypto';
import type { UploadStatus } from '../../shared/api/contracts/resources';
import { uniq } from './api';
import type { CrashHarness, Prepared, RouteCase } from './crash-harness';
import { tfliteModel } from './fixtures';

/**
 * The crash matrix's resource, upload, provenance and DCC routes: uploads through the API (one call, a
 * presigned PUT, a multipart upload of one part) in the state each step starts from.
 */

const SIZE = 4096;

/** A presigned upload whose bytes are in the bucket, not yet confirmed. */
export async function uploadedNotConfirmed(h: CrashHarness): Promise<{ uploadId: string }> {
  const name = uniq('crash-up');
  const r = await h.kit.must<{ uploadId: string; resourceUrl: string }>(201, '/resources/uploads', {
    method: 'POST',
    token: h.u.designDev.token,
    body: { name, resourceType: 'PATCH', resourceStage: 'DEV', fileName: `${name}.bin`, sizeBytes: SIZE },
  });
  const put = await fetch(r.body.resourceUrl, { method: 'PUT', body: new Uint8Array(randomBytes(SIZE)) });
  await put.arrayBuffer();
  if (put.status !== 200) throw new Error(`presigned PUT: ${put.status}`);
  return { uploadId: r.body.uploadId };
}

/** A multipart upload of one part, the part in the bucket, not yet completed. */
async function multipartWithPart(h: CrashHarness): Promise<{ uploadId: string; etag: string }> {
  const name = uniq('crash-mp');
  const start = await h.kit.must<{ uploadId: string }>(201, '/resources/uploads/multipart', {
    method: 'POST',
    token: h.u.designDev.token,
    body: { name, resourceType: 'PATCH', resourceStage: 'DEV', fileName: `${name}.bin`, sizeBytes: SIZE },
  });
  const urls = await h.kit.must<{ urls: { partNumber: number; url: string }[] }>(
    200,
    `/resources/uploads/${start.body.uploadId}/parts`,
    {
      method: 'POST',
      token: h.u.designDev.token,
      body: { partNumbers: [1] },
    },
  );
  const put = await fetch(urls.body.urls[0]!.url, { method: 'PUT', body: new Uint8Array(randomBytes(SIZE)) });
  await put.arrayBuffer();
  if (put.status !== 200) throw new Error(`part PUT: ${put.status}`);
  return { uploadId: start.body.uploadId, etag: put.headers.get('etag') ?? '' };
}

/** Waits until the upload is registered (the verifyUpload worker), or says where it stays. */
export async function uploadSettles(
  h: CrashHarness,
  uploadId: string,
  want: UploadStatus['state'] = 'REGISTERED',
) {
  const deadline = Date.now() + 60_000;
  let last: UploadStatus | undefined;
  while (Date.now() < deadline) {
    const r = await h.kit.call<UploadStatus>(`/resources/uploads/${uploadId}`, {
      token: h.u.designDev.token,
    });
    last = r.body;
    if (r.status === 200 && (r.body.state === want || (r.body.state === 'FAILED' && want !== 'FAILED')))
      break;
    await new Promise((res) => setTimeout(res, 150));
  }
  return last?.state === want
    ? null
    : `upload ${uploadId} is ${last?.state} (${last?.errorMessage ?? ''}), not ${want}`;
}

const PROVENANCE = {
  repository: 'https://git.example.com/pumps/pump-controller',
  commit: '9f2c1e7b4a5d6c8e0f1a2b3c4d5e6f708192a3b4',
  buildId: '812',
  buildUrl: 'https://ci.example.com/pumps/pump-controller/builds/812',
  builder: 'GitLab CI runner fw-build-03',
};
const SBOM = {
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  metadata: { component: { name: 'pump-controller', version: '4.2.0' } },
  components: [{ name: 'mbedtls', version: '3.5.1' }],
};

function multipartForm(files: [string, Uint8Array, string][]): FormData {
  const form = new FormData();
  for (const [field, bytes, name] of files) form.append(field, new Blob([new Uint8Array(bytes)]), name);
  return form;
}

export function resourceCases(): RouteCase[] {
  const upload = (h: CrashHarness, token = h.u.designDev.token) => h.kit.uploadPatch(token);
  return [
    {
      route: 'uploadPatch',
      retryAnswers: [201, 409],
      async prepare(h): Promise<Prepared> {
        const name = uniq('crash-patch');
        return {
          path: `/resources/patch/dev?name=${name}`,
          method: 'POST',
          token: h.u.designDev.token,
          body: multipartForm([['resourceFile', randomBytes(SIZE), `${name}.bin`]]),
        };
      },
    },
    {
      route: 'uploadModel',
      retryAnswers: [201, 409],
      async prepare(h): Promise<Prepared> {
        const name = uniq('crash-model');
        const metadata = Buffer.from(JSON.stringify({ modelName: 'keyword-spotter', version: '1.4.2' }));
        return {
          path: `/resources/model/dev?name=${name}`,
          method: 'POST',
          token: h.u.designDev.token,
          body: multipartForm([
            ['resourceFile', tfliteModel(SIZE), `${name}.tflite`],
            ['metadataFile', metadata, `${name}.json`],
          ]),
        };
      },
    },
    {
      route: 'requestResourceUpload',
      retryAnswers: [201, 409],
      async prepare(h) {
        const name = uniq('crash-req');
        return {
          path: '/resources/uploads',
          method: 'POST',
          token: h.u.designDev.token,
          body: {
            name,
            resourceType: 'PATCH',
            resourceStage: 'DEV',
            fileName: `${name}.bin`,
            sizeBytes: SIZE,
          },
        };
      },
    },
    {
      route: 'confirmResourceUpload',
      async prepare(h) {
        const { uploadId } = await uploadedNotConfirmed(h);
        return {
          path: `/resources/uploads/${uploadId}/confirm`,
          method: 'POST',
          token: h.u.designDev.token,
          ctx: { uploadId },
        };
      },
      settled: (h, prep) => uploadSettles(h, String(prep.ctx!.uploadId)),
    },
    {
      route: 'startMultipartUpload',
      retryAnswers: [201, 409],
      async prepare(h) {
        const name = uniq('crash-start');
        return {
          path: '/resources/uploads/multipart',
          method: 'POST',
          token: h.u.designDev.token,
          body: {
            name,
            resourceType: 'PATCH',
            resourceStage: 'DEV',
            fileName: `${name}.bin`,
            sizeBytes: SIZE,
          },
        };
      },
    },
    {
      route: 'presignUploadParts',
      async prepare(h) {
        const name = uniq('crash-parts');
        const start = await h.kit.must<{ uploadId: string }>(201, '/resources/uploads/multipart', {
          method: 'POST',
          token: h.u.designDev.token,
          body: {
            name,
            resourceType: 'PATCH',
            resourceStage: 'DEV',
            fileName: `${name}.bin`,
            sizeBytes: SIZE,
          },
        });
        return {
          path: `/resources/uploads/${start.body.uploadId}/parts`,
          method: 'POST',
          token: h.u.designDev.token,
          body: { partNumbers: [1] },
        };
      },
    },
    {
      route: 'completeMultipartUpload',
      async prepare(h) {
        const { uploadId, etag } = await multipartWithPart(h);
        return {
          path: `/resources/uploads/${uploadId}/complete`,
          method: 'POST',
          token: h.u.designDev.token,
          body: { parts: [{ partNumber: 1, etag }] },
          ctx: { uploadId },
        };
      },
      settled: (h, prep) => uploadSettles(h, String(prep.ctx!.uploadId)),
    },
    {
      route: 'abortResourceUpload',
      retryAnswers: [200, 204, 404],
      async prepare(h) {
        const { uploadId } = await multipartWithPart(h);
        return { path: `/resources/uploads/${uploadId}`, method: 'DELETE', token: h.u.designDev.token };
      },
    },
    {
      route: 'attachProvenance',
      async prepare(h) {
        const r = await upload(h);
        return {
          path: `/resources/${r.id}/provenance`,
          method: 'PUT',
          token: h.u.designDev.token,
          body: { provenance: PROVENANCE, sbom: { fileName: 'bom.json', content: SBOM } },
        };
      },
    },
    {
      route: 'createDcc',
      async prepare(h) {
        return {
          path: '/dcc',
          method: 'POST',
          token: h.u.designDev.token,
          body: { deviceId: uniq('crash-dev'), telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
        };
      },
    },
    {
      route: 'adminDeleteDcc',
      retryAnswers: [200, 204, 404],
      async prepare(h) {
        const id = await h.kit.createDcc(h.u.designDev.token);
        return { path: '/admin/dcc', method: 'DELETE', token: h.u.admin.token, body: [id] };
      },
    },
    {
      route: 'adminDeleteResources',
      retryAnswers: [200, 204, 404],
      async prepare(h) {
        const r = await upload(h);
        return { path: '/admin/resources', method: 'DELETE', token: h.u.admin.token, body: [r.id] };
      },
    },
  ];
}
