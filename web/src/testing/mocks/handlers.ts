import { API_STAGE } from '@shared/api/routes';
import { API_ERR } from '@shared/messages';
import { delay, HttpResponse, http } from 'msw';
import { buildRouter } from '../../../../infra/local/router';
import { SAMPLE_ANSWERS, SAMPLE_USERS, sampleToken } from './sample-answers';

/**
 * Mock mode's wiring (spec §7): each call matched against the route table as API Gateway matches it
 * (infra/local/router.ts) and answered from the sample data (sample-answers.ts), the signed-in user read
 * from the bearer token. Guarded rows answer 401 without a sample user's token; a row without a sample
 * answer answers 501.
 */

const match = buildRouter();

async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  try {
    const b = (await request.json()) as unknown;
    return typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function answer(request: Request): Promise<Response> {
  await delay(250); // loaders stay visible a moment, as against a real API
  const url = new URL(request.url);
  const m = match(request.method, url.pathname.slice(`/${API_STAGE}`.length) || '/');
  if ('error' in m) return HttpResponse.json({ message: 'Missing Authentication Token' }, { status: 403 });
  const token = (request.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
  const user = SAMPLE_USERS.find((u) => sampleToken(u.id) === token);
  if (m.route.access !== 'public' && !user)
    return HttpResponse.json({ errorMessage: API_ERR.invalidToken }, { status: 401 });
  const sample = SAMPLE_ANSWERS[m.route.id];
  if (!sample)
    return HttpResponse.json(
      { errorMessage: `${m.route.id} has no sample answer in mock mode` },
      { status: 501 },
    );
  const body = request.method === 'GET' ? {} : await bodyOf(request);
  const { status = 200, body: answered } = sample({ user, params: m.params, query: url.searchParams, body });
  return HttpResponse.json(answered, { status });
}

export const handlers = [
  http.all(`/${API_STAGE}/*`, ({ request }) => answer(request)),
  http.put('/mock-storage/:part', () => new HttpResponse(null, { status: 200 })),
];
