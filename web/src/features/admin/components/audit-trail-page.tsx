import { Alert, Badge, Button, Flex, Heading, SelectField, Text, TextField } from '@aws-amplify/ui-react';
import type { ChainedEvent } from '@shared/domain/audit-event';
import {
  AUDIT_PAGE_SIZES,
  AUDIT_SUBJECT_KIND_LABELS,
  AUDIT_SUBJECT_KINDS,
  type AuditFilter,
  type AuditSubjectKind,
  type ChainState,
  chainStateText,
} from '@shared/domain/audit-search';
import { roleLabel } from '@shared/domain/roles';
import { type FormEvent, useEffect, useState } from 'react';
import { useApiQuery } from '@/hooks/use-api-query';
import { listAdmin } from '../api/admin-api';
import { type AuditPage, auditPage, exportAudit } from '../api/audit-api';
import './audit-trail-page.css';

const ROWS_KEY = 'frp.audit.rowsPerPage';

/** The rows-per-page choice, remembered in this browser. */
function storedRows(): number {
  const n = Number(globalThis.localStorage?.getItem(ROWS_KEY));
  return (AUDIT_PAGE_SIZES as readonly number[]).includes(n) ? n : AUDIT_PAGE_SIZES[0];
}

const EMPTY: AuditFilter = {};

/** The role of an actor in words (system actors keep their code). */
const roleText = (role: string) => {
  try {
    return roleLabel(role as never) ?? role;
  } catch {
    return role;
  }
};

function ChainBadge({ chain }: { chain: ChainState | undefined }) {
  if (!chain) return null;
  return (
    <Badge
      size="small"
      variation={chain.intact ? 'success' : 'error'}
      title={`head hash ${chain.headHash ?? 'none'}`}
    >
      {chainStateText(chain)}
    </Badge>
  );
}

function EventRow({
  e,
  chain,
  onSubject,
}: {
  e: ChainedEvent;
  chain: ChainState | undefined;
  onSubject: (subject: string) => void;
}) {
  return (
    <tr>
      <td className="audit-mono">{e.at}</td>
      <td>
        <div>{e.actorName}</div>
        <div className="audit-muted">{roleText(e.actorRole)}</div>
      </td>
      <td className="audit-mono">{e.action}</td>
      <td>{e.meaning}</td>
      <td>
        <button
          type="button"
          className="audit-link"
          title={`Show every event of ${e.subject}`}
          onClick={() => onSubject(e.subject)}
        >
          {e.subject}
        </button>
        <div className="audit-muted">
          event {e.seq} <ChainBadge chain={chain} />
        </div>
      </td>
      <td>
        <details>
          <summary>Details</summary>
          <pre className="audit-details">
            {JSON.stringify(
              { ...e.details, actorId: e.actorId, prevHash: e.prevHash, hash: e.hash },
              null,
              2,
            )}
          </pre>
        </details>
      </td>
    </tr>
  );
}

/**
 * The audit trail screen (decisions 346–348): every event of every subject, newest first, filtered on the
 * server by who, what, subject and UTC dates, paged by cursor (Newer / Older), each subject's chain state
 * beside its events; the filtered view exports as CSV and as PDF (each export is itself recorded).
 */
export function AuditTrailPage() {
  const [draft, setDraft] = useState<AuditFilter>(EMPTY);
  const [filter, setFilter] = useState<AuditFilter>(EMPTY);
  const [rows, setRows] = useState(storedRows);
  // the cursors of the pages before this one: Older pushes, Newer pops
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [problem, setProblem] = useState<string | null>(null);
  const [exported, setExported] = useState<string | null>(null);
  const cursor = cursors.at(-1);
  const users = useApiQuery((signal) => listAdmin('users', signal), []);
  const page = useApiQuery<AuditPage>(
    async (signal) => {
      const r = await auditPage(filter, rows, cursor, signal);
      setProblem(r.ok ? null : r.error.errorMessage);
      return r;
    },
    [filter, rows, cursor],
  );
  useEffect(() => {
    globalThis.localStorage?.setItem(ROWS_KEY, String(rows));
  }, [rows]);

  const apply = (f: AuditFilter) => {
    setFilter(f);
    setCursors([undefined]);
    setExported(null);
  };
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    apply(draft);
  };
  const set = (k: keyof AuditFilter) => (v: string) => setDraft((d) => ({ ...d, [k]: v || undefined }));
  const onSubject = (subject: string) => {
    const f = { ...EMPTY, subject };
    setDraft(f);
    apply(f);
  };
  const doExport = async (format: 'CSV' | 'PDF') => {
    const r = await exportAudit(filter, format);
    if (r.ok)
      setExported(
        `${r.data.fileName}: ${r.data.events} event${r.data.events === 1 ? '' : 's'}, digest ${r.data.digest}`,
      );
    else setProblem(r.error.errorMessage);
  };

  const data = page.data;
  const chains = new Map((data?.chains ?? []).map((c) => [c.subject, c]));
  const pageNo = cursors.length;
  return (
    <section className="audit-page" aria-labelledby="audit-title">
      <Heading level={2} id="audit-title">
        Audit trail
      </Heading>
      <Text className="audit-muted">
        Every recorded event of every package, user, role, token, resource and DCC, newest first. Times are
        UTC.
      </Text>
      <form className="audit-filters" onSubmit={submit} aria-label="Filter the audit trail">
        <SelectField label="Who" value={draft.actor ?? ''} onChange={(e) => set('actor')(e.target.value)}>
          <option value="">Anyone</option>
          {(users.data ?? []).map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} ({u.email})
            </option>
          ))}
        </SelectField>
        <TextField
          label="What (action)"
          placeholder="e.g. ROLE_GRANTED"
          value={draft.action ?? ''}
          onChange={(e) => set('action')(e.target.value.toUpperCase().trim())}
        />
        <SelectField
          label="Kind of subject"
          value={draft.subjectKind ?? ''}
          onChange={(e) => set('subjectKind')(e.target.value as AuditSubjectKind)}
        >
          <option value="">Any</option>
          {AUDIT_SUBJECT_KINDS.map((k) => (
            <option key={k} value={k}>
              {AUDIT_SUBJECT_KIND_LABELS[k]}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Subject"
          placeholder="e.g. PKG#… or USER#…"
          value={draft.subject ?? ''}
          onChange={(e) => set('subject')(e.target.value.trim())}
        />
        <TextField
          label="From (UTC)"
          type="date"
          value={draft.from ?? ''}
          onChange={(e) => set('from')(e.target.value)}
        />
        <TextField
          label="To (UTC)"
          type="date"
          value={draft.to ?? ''}
          onChange={(e) => set('to')(e.target.value)}
        />
        <Flex className="audit-filter-buttons" alignItems="flex-end" gap="0.5rem">
          <Button type="submit" variation="primary">
            Apply filter
          </Button>
          <Button
            type="button"
            onClick={() => {
              setDraft(EMPTY);
              apply(EMPTY);
            }}
          >
            Clear
          </Button>
        </Flex>
      </form>

      <Flex
        className="audit-toolbar"
        justifyContent="space-between"
        alignItems="center"
        wrap="wrap"
        gap="0.75rem"
      >
        <Flex gap="0.5rem" alignItems="center">
          <Button size="small" onClick={() => doExport('CSV')}>
            Export CSV
          </Button>
          <Button size="small" onClick={() => doExport('PDF')}>
            Export PDF
          </Button>
          <Text className="audit-muted">the filtered view, every page of it (at most 2,000 events)</Text>
        </Flex>
        <SelectField
          label="Rows per page"
          labelHidden={false}
          size="small"
          value={String(rows)}
          onChange={(e) => {
            setRows(Number(e.target.value));
            setCursors([undefined]);
          }}
        >
          {AUDIT_PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </SelectField>
      </Flex>

      {problem ? (
        <Alert variation="error" role="alert">
          {problem}
        </Alert>
      ) : null}
      {exported ? (
        <Alert variation="success" role="status">
          Exported {exported}. The export is recorded in the audit trail.
        </Alert>
      ) : null}
      {data && data.examined > data.events.length && data.nextCursor ? (
        <Alert variation="info">
          This filter is applied after reading: {data.examined} stored events were read to find these{' '}
          {data.events.length}. Older continues where the reading stopped.
        </Alert>
      ) : null}

      <div className="audit-table-wrap">
        <table className="audit-table">
          <caption className="audit-caption">
            Page {pageNo}
            {page.loading ? ' (loading…)' : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Time (UTC)</th>
              <th scope="col">Actor and role</th>
              <th scope="col">Action</th>
              <th scope="col">Meaning</th>
              <th scope="col">Subject and chain</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {data && data.events.length === 0 ? (
              <tr>
                <td colSpan={6}>No event matches this filter{pageNo > 1 ? ' on this page' : ''}.</td>
              </tr>
            ) : null}
            {(data?.events ?? []).map((e) => (
              <EventRow
                key={`${e.subject}#${e.seq}`}
                e={e}
                chain={chains.get(e.subject)}
                onSubject={onSubject}
              />
            ))}
          </tbody>
        </table>
      </div>
      <Flex justifyContent="flex-end" gap="0.5rem" className="audit-pager">
        <Button size="small" isDisabled={pageNo === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer
        </Button>
        <Button
          size="small"
          isDisabled={!data?.nextCursor}
          onClick={() => data?.nextCursor && setCursors((c) => [...c, data.nextCursor ?? undefined])}
        >
          Older
        </Button>
      </Flex>
    </section>
  );
}
