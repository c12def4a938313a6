import { resourceSchema } from '@shared/api/contracts/records';
import type { Resource, ResourceType, Stage } from '@shared/api/contracts/resources';
import { z } from 'zod';
import { type ApiResult, callApi, parseJsonText, readAnswer } from '@/lib/api-client/api-client';

/** GET /resources/{patch|model}/{dev|release}: `resources` is JSON text of a list (spec §7). */
export async function getResources(
  type: ResourceType,
  stage: Stage,
  signal?: AbortSignal,
): Promise<ApiResult<Resource[]>> {
  const result = await callApi(
    type === 'MODEL' ? 'listModels' : 'listPatches',
    { params: { stage: stage.toLowerCase() } },
    { signal },
  );
  return readAnswer(result, (d) => parseJsonText(d.resources, z.array(resourceSchema), []));
}
