import { CONTRACT } from '@shared/api/contract';
import { buildRouter } from '@shared/api/route-matcher';
import type { RouteContract } from '@shared/api/route-table/types';
import { API_STAGE, type RouteId } from '@shared/api/routes';
import { API_ERR } from '@shared/messages';
import { delay, HttpResponse, http, type JsonBodyType } from 'msw';
import { setupWorker } from 'msw/browser';
import { isRefusal, SAMPLE_ANSWERS, SAMPLE_USERS, sampleToken } from './sample-answers';

/**
 * Mock mode's wiring (spec §7): a service worker matches each call against the route table as API Gateway
 * matches it (shared/api/route-matcher.ts) and answers it from the sample data (sample-answers.ts) with the
 * route's success status, the signed-in user read from the bearer token. Guarded rows answer 401 without
 * a sample user's token; a row without a sample answer answers 501.
 */
const match = buildRouter();
const json = (body: JsonBodyType, status: number) => HttpResponse.json(body, { status });
const bodyOf = async (r: Request) => Object(await r.json().catch(() => ({}))) as Record<string, unknown>;

async function answer(request: Request): Promise<Response> {
  await delay(250); // loaders stay visible a moment, as against a real API
  const url = new URL(request.url);
  const m = match(request.method, url.pathname.slice(`/${API_STAGE}`.length) || '/');
  if ('error' in m) return json({ message: 'Missing Authentication Token' }, 403);
  const token = (request.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
  const user = SAMPLE_USERS.find((u) => sampleToken(u.id) === token);
  if (m.route.access !== 'public' && !user) return json({ errorMessage: API_ERR.invalidToken }, 401);
  const id = m.route.id as RouteId;
  const sample = SAMPLE_ANSWERS[id];
  if (!sample) return json({ errorMessage: `${id} has no sample answer in mock mode` }, 501);
  const body = request.method === 'GET' ? {} : await bodyOf(request);
  const answered = sample({ user, params: m.params, query: url.searchParams, body });
  const status = (CONTRACT[id] as RouteContract).statuses?.[0] ?? 200;
  if (isRefusal(answered)) return json({ errorMessage: answered.errorMessage }, answered.status);
  // a file route (the SBOM) answers its bytes as they are, every other route JSON
  if (typeof answered !== 'string') return json(answered, status);
  return new HttpResponse(answered, { status, headers: { 'Content-Type': 'application/json' } });
}

/** Mock mode (spec §7): a service worker answers /dev/* with the sample data (and the upload URLs). */
export async function startMockWorker(): Promise<void> {
  const api = http.all(`/${API_STAGE}/*`, ({ request }) => answer(request));
  const storage = http.put('/mock-storage/:part', () => new HttpResponse(null, { status: 200 }));
  const serviceWorker = { url: '/mockServiceWorker.js' };
  await setupWorker(api, storage).start({ onUnhandledRequest: 'bypass', serviceWorker });
  console.info('[mock mode] API calls are answered with sample data. Password of every user: Local-Dev-1234');
}
