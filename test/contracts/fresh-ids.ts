/**
 * Ids, names and keys no other case uses, nor another run on the same tables: a contract's cases share
 * one store per file and read back only what they wrote.
 */
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
let n = 0;
export const fresh = (what: string): string => `${what}-${run}-${++n}`;
