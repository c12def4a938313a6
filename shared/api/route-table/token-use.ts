import type { TableName } from './types';

/**
 * The uses of a row an access token may call (`tokenScope`) and that changes something: its own writes
 * plus the users table, where the token's last use and its per-token quota are kept (decision 257). A GET
 * row changes nothing (decision 011): a token's reads are checked but not counted.
 */
export function tokenCallable<
  const U extends { tables: readonly TableName[]; writes?: readonly TableName[] },
>(uses: U): U & { writes: readonly TableName[] } {
  const own = uses.writes ?? uses.tables.filter((t) => t !== 'users');
  return { ...uses, writes: [...own, 'users'] };
}
