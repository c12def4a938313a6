import {
  type ListPageQuery,
  listViewRequest,
  type Package,
  pageRequest,
} from '../../../shared/api/contracts/packages';
import { AppError } from '../../../shared/domain/errors';
import type { PackageListName, PageRequest } from '../../ports/package-repository';
import { WHOLE_LIST_BYTES } from '../whole-list';
import type { PackagePage } from './package-deps';
import type { PackageView } from './package-lists';

/**
 * Above this many packages a whole list cannot fit in 6 MB (a list entry is at least ~1 KB of JSON text):
 * refused before anything is read, not after reading every package.
 */
export const WHOLE_LIST_MAX_ROWS = 6000;

export interface ListReaders {
  whole: () => Promise<Package[]>;
  page: (page: PageRequest) => Promise<PackagePage>;
  view: (list: PackageListName, req: ReturnType<typeof listViewRequest> & {}) => Promise<PackageView>;
  count: (list: PackageListName) => Promise<number>;
}

export type ListAnswer = { packages: string; nextCursor?: string; total?: number };

/**
 * The three package-list calls' answer (decisions 050, 210). With `offset`, `search` or `sort`: one page
 * of the searched, sorted list and its `total` (and `nextCursor`-free: the caller pages by offset). With
 * `limit`/`cursor` only: one page of the index, newest first, as decision 050. With none: the whole list
 * as the spec's clients expect, while it fits in Lambda's 6 MB answer; beyond, a 413 that says how to
 * page instead of the gateway's bare 502.
 */
export async function listAnswer(
  list: PackageListName,
  query: ListPageQuery | undefined,
  read: ListReaders,
): Promise<ListAnswer> {
  const view = listViewRequest(query);
  if (view) {
    const { packages, total } = await read.view(list, view);
    return { packages: JSON.stringify(packages), total };
  }
  const page = pageRequest(query);
  if (page) {
    const { packages, nextCursor } = await read.page(page);
    return { packages: JSON.stringify(packages), ...(nextCursor ? { nextCursor } : {}) };
  }
  const count = await read.count(list);
  if (count > WHOLE_LIST_MAX_ROWS) throw tooLarge(count);
  const whole = await read.whole();
  const packages = JSON.stringify(whole);
  // the body as it will be sent: JSON text inside JSON (each quote and backslash escaped again)
  if (Buffer.byteLength(JSON.stringify({ packages }), 'utf8') > WHOLE_LIST_BYTES)
    throw tooLarge(whole.length);
  return { packages };
}

function tooLarge(count: number) {
  // 413 with the count, as PayloadTooLargeError does for a too-large request
  return new AppError(
    413,
    `This list has ${count.toLocaleString('en-US')} packages, more than one answer can carry (Lambda answers at most 6 MB). ` +
      'Ask for it a page at a time: ?offset=0&limit=25 (with search and sort, and the total), or ?limit=1000 and then ?cursor=<nextCursor>.',
    { total: count },
  );
}
