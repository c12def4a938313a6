import { packageServiceWithArtefacts } from '../composition-artefacts';
import { route } from '../routes/packages';

/** Small packages come back as base64 (spec §7); larger ones as a presigned URL (Lambda's 6 MB limit). */
export const handler = route('downloadPackage', async ({ params }) => {
  const d = await packageServiceWithArtefacts().download(params.id);
  return {
    body: {
      fileName: d.fileName,
      sizeBytes: d.sizeBytes,
      sha256: d.sha256,
      ...(d.base64 ? { base64EncodedXMLPackage: d.base64 } : { downloadUrl: d.url }),
    },
  };
});
