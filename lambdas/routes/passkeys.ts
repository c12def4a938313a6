import { PASSKEY_CONTRACT, PASSKEY_ROUTES } from '../../shared/api/route-table/passkeys';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the passkey rows (shared/api/route-table/passkeys.ts). */
export const route = routesOf(PASSKEY_ROUTES, PASSKEY_CONTRACT, authenticate);
