import { NotImplementedError } from '../../shared/domain/errors';
import { API_ERR } from '../../shared/messages';
import type { Authenticate } from './authorize';
import { route } from './http';

/** A route whose behaviour is not built yet: authorized like the real one, then a clear 501. */
export function notImplemented(routeId: string, authenticate: Authenticate) {
  return route(
    routeId,
    { raw: true },
    async () => {
      throw new NotImplementedError(`${API_ERR.notImplemented} (${routeId})`);
    },
    authenticate,
  );
}
