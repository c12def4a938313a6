import type { RouteId } from '../../shared/api/routes';
import { NotImplementedError } from '../../shared/domain/errors';
import { API_ERR } from '../../shared/messages';
import { route } from './http';

/** A route whose behaviour is not built yet: authorized and validated like the real one, then a clear 501. */
export function notImplemented(routeId: RouteId) {
  return route(routeId, async () => {
    throw new NotImplementedError(`${API_ERR.notImplemented} (${routeId})`);
  });
}
