import { pathsOf, ROUTE_LIST } from './routes';

/** Every route of the app (spec §2), by name: built from the route list, so a path is written once. */
export const paths = pathsOf(ROUTE_LIST);
