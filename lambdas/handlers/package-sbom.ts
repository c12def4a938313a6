import { provenanceService } from '../composition-provenance';
import { route } from '../routes/provenance';

/** The SBOM a package pins, byte for byte, as a file download. */
export const handler = route('packageSbom', async ({ params }) => {
  const file = await provenanceService().packageSbom(params.id);
  const ascii = file.fileName.replace(/[^\w.()-]/g, '_');
  return {
    body: file.text,
    headers: {
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      'X-Content-SHA256': file.sha256,
    },
  };
});
