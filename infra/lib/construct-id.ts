/**
 * The construct id of a row's id (a route, worker, table or bucket name): `mailOutbox` → `MailOutbox`.
 * The constructs name their scopes with it, and scripts/redrive.ts finds a worker's queues by it.
 */
export const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
