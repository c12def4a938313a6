import { CheckboxField, SelectField } from '@aws-amplify/ui-react';
import type { PackageSource } from '@shared/api/contracts/packages';
import { STATUS_LABELS } from '@/components/ui/status-badge';

/** What the user chose: start empty (null) or from the package with this id. */
export type StartFrom = string | null;

const day = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** Why a package is offered (decision 268): this resource, or the same device of another resource. */
const matchText = (s: PackageSource) =>
  s.match === 'device'
    ? ' (same device, another resource)'
    : s.match === 'resource'
      ? ' (this resource)'
      : '';

/** One option's words: the name, its state in words, who made it and when it last changed, and why offered. */
export const sourceLabel = (s: PackageSource) =>
  `${s.name} — ${STATUS_LABELS[s.status]} — ${s.initiatorName}, ${day(s.updatedAt)}${s.deviceId ? ` — DCC ${s.deviceId}` : ''}${matchText(s)}`;

/**
 * Issue 25, "start from a previous package": on step 1 of a new package, copy the header values and the
 * DCC choice of an earlier package of the same resource or device (by default the latest rejected or
 * approved one, which the server proposes). Shown only when there is an earlier package.
 */
export function StartFromField({
  sources,
  proposedId,
  value,
  onChange,
}: {
  sources: PackageSource[];
  proposedId: string | null;
  value: StartFrom;
  onChange: (value: StartFrom) => void;
}) {
  if (sources.length === 0) return null;
  const proposed = sources.find((s) => s.id === proposedId);
  const chosen = sources.find((s) => s.id === value);
  return (
    <fieldset className="frp-start-from" aria-describedby="start-from-hint">
      <legend>Start from an earlier package</legend>
      {proposed?.status === 'REJECTED' ? (
        <p id="start-from-hint" className="frp-muted">
          The latest package of this {proposed.match === 'device' ? 'device (another resource)' : 'resource'},{' '}
          <strong>{proposed.name}</strong>, was rejected. Start from it to keep its header values and DCC, and
          change only what the rejection asks for.
        </p>
      ) : (
        <p id="start-from-hint" className="frp-muted">
          Copy the header values and the DCC choice of an earlier package of this resource or device; you
          check and change them in the next steps.
        </p>
      )}
      <CheckboxField
        label="Copy the header and DCC from an earlier package"
        name="startFrom"
        checked={value !== null}
        onChange={(e) => onChange(e.target.checked ? ((proposed ?? sources[0])?.id ?? null) : null)}
      />
      {value !== null ? (
        <SelectField
          label="Earlier package"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          descriptiveText={
            // the whole choice in words: a narrow select cuts its option text (issue 25, 1366×768)
            chosen
              ? `Copies from ${chosen.name} (${STATUS_LABELS[chosen.status]}), by ${chosen.initiatorName}, ${day(chosen.updatedAt)} UTC${chosen.deviceId ? `, DCC ${chosen.deviceId}` : ''}${matchText(chosen)}`
              : undefined
          }
        >
          {sources.map((s) => (
            <option key={s.id} value={s.id}>
              {sourceLabel(s)}
            </option>
          ))}
        </SelectField>
      ) : null}
    </fieldset>
  );
}
