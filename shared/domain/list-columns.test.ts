import { describe, expect, it } from 'vitest';
import { tableViewRequest } from '../api/contracts/list-view';
import {
  ADMIN_RESOURCE_LIST,
  cutView,
  DCC_LIST,
  PACKAGE_LIST,
  type PackageListRow,
  roleStatusText,
  USER_LIST,
} from './list-columns';
import type { Dcc } from './model/dcc';
import type { Resource } from './model/resource';
import type { PublicUser } from './model/user';

const dcc = (deviceId: string, telemetryType: Dcc['telemetryType'], deviceLimit: number): Dcc => ({
  id: deviceId,
  deviceId,
  telemetryType,
  deviceLimit,
  messageLimit: 64,
  createdAt: '',
  createdBy: { id: 'u', name: 'U' },
});

describe('the tables of decision 221: one page of the searched, sorted list', () => {
  const rows = [dcc('b-2', 'TelA', 4096), dcc('A-10', 'BLE', 512), dcc('a-9', 'TelB', 2048)];

  it('searches case-insensitively in the spec fields (numbers as text) and counts the matches', () => {
    expect(cutView(rows, { offset: 0, limit: 5, search: 'ble' }, DCC_LIST)).toEqual({
      rows: [rows[1]],
      total: 1,
    });
    expect(cutView(rows, { offset: 0, limit: 5, search: '409' }, DCC_LIST).total).toBe(1);
  });

  it('sorts text case-insensitively and numerically, numbers by value, both ways, then cuts the page', () => {
    const byId = (direction: 'ascending' | 'descending', offset = 0, limit = 5) =>
      cutView(rows, { offset, limit, search: '', sort: { by: 'deviceId', direction } }, DCC_LIST).rows.map(
        (r) => r.deviceId,
      );
    expect(byId('ascending')).toEqual(['a-9', 'A-10', 'b-2']);
    expect(byId('descending')).toEqual(['b-2', 'A-10', 'a-9']);
    expect(byId('ascending', 1, 1)).toEqual(['A-10']);
    const limits = cutView(
      rows,
      { offset: 0, limit: 5, search: '', sort: { by: 'deviceLimit', direction: 'ascending' } },
      DCC_LIST,
    );
    expect(limits.rows.map((r) => r.deviceLimit)).toEqual([512, 2048, 4096]);
    // no sort: the list's order; past the end: no rows, the total still
    expect(cutView(rows, { offset: 0, limit: 2, search: '' }, DCC_LIST).rows).toEqual(rows.slice(0, 2));
    expect(cutView(rows, { offset: 9, limit: 2, search: '' }, DCC_LIST)).toEqual({ rows: [], total: 3 });
  });

  it('searches admin resources by type and stage as shown, and users by role label and status', () => {
    const r = { name: 'x', resourceType: 'MODEL', resourceStage: 'RELEASE' } as Resource;
    expect(ADMIN_RESOURCE_LIST.search(r)).toEqual(['x', 'Model', 'Release']);
    const u = {
      name: 'Pat',
      email: 'pat@example.com',
      userRole: 'RELIABILITY_ENGINEER',
      roleStatus: 'REQUESTED',
      emailConfirmed: false,
    } as PublicUser;
    expect(roleStatusText(u)).toBe('Requested: Reliability Engineer (email not confirmed)');
    expect(USER_LIST.search(u)).toContain('Reliability Engineer');
    expect(USER_LIST.sorts.roleStatus(u)).toBe(roleStatusText(u));
  });

  it('reads a view request only when a paging parameter is sent', () => {
    expect(tableViewRequest({})).toBeUndefined();
    expect(tableViewRequest(undefined)).toBeUndefined();
    expect(tableViewRequest({ limit: 25 })).toEqual({ offset: 0, limit: 25, search: '' });
    expect(tableViewRequest({ search: 'a', sort: 'name', order: 'desc' })).toEqual({
      offset: 0,
      limit: 100,
      search: 'a',
      sort: { by: 'name', direction: 'descending' },
    });
    expect(() => tableViewRequest({ order: 'asc' })).toThrow('order needs sort');
  });
});

describe('the package lists and the admin package table (decision 260)', () => {
  const pkg = (
    name: string,
    status: PackageListRow['status'],
    signed: boolean,
    note = '',
  ): PackageListRow => ({
    name,
    resourceName: `${name}.zip`,
    note,
    resourceType: 'PATCH',
    resourceStage: 'DEV',
    signed,
    status,
  });
  const rows = [
    pkg('b', 'DRAFT', false),
    pkg('A', 'PENDING_APPROVAL', true, 'Pump occlusion'),
    pkg('c', 'REJECTED', true),
  ];
  const cut = (by: string, direction: 'ascending' | 'descending', search = '') =>
    cutView(rows, { offset: 0, limit: 5, search, sort: { by, direction } }, PACKAGE_LIST).rows.map(
      (r) => r.name,
    );

  it('sorts State by its words (Awaiting approval, Draft, Rejected), not by the status codes', () => {
    expect(cut('status', 'ascending')).toEqual(['A', 'b', 'c']);
    expect(cut('status', 'descending')).toEqual(['c', 'b', 'A']);
    expect(PACKAGE_LIST.sorts.status(rows[1] as PackageListRow)).toBe('Awaiting approval');
  });

  it('sorts Signed? as it shows (Yes / No) and searches name, resource name and note only', () => {
    expect(cut('signed', 'descending')).toEqual(['A', 'c', 'b']);
    expect(cut('name', 'ascending', 'OCCLUSION')).toEqual(['A']);
    expect(cut('name', 'ascending', 'c.ZIP')).toEqual(['c']);
    expect(cut('name', 'ascending', 'draft')).toEqual([]);
  });
});
