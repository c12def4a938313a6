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
 * The device choice of a resource with no earlier package of its own (a new firmware build): its DCC is
 * chosen later in the flow, so the user names the device here to be offered that device's packages.
 */
export interface DeviceChoice {
  /** the DCC device ids the user can read */
  devices: string[];
  /** the chosen one, or '' */
  device: string;
  onDevice: (device: string) => void;
  /** the chosen device's packages are being read */
  loading: boolean;
}

/**
 * "start from a previous package" (decision 240): on step 1 of a new package, copy the header values and the
 * DCC choice of an earlier package of the same resource or device (by default the latest rejected or
 * approved one, which the server proposes). Shown only when there is an earlier package, or a device to
 * choose (`deviceChoice`, for a resource without packages of its own).
 */
export function StartFromField({
  sources,
  proposedId,
  value,
  onChange,
  deviceChoice,
}: {
  sources: PackageSource[];
  proposedId: string | null;
  value: StartFrom;
  onChange: (value: StartFrom) => void;
  deviceChoice?: DeviceChoice;
}) {
  const choosing = deviceChoice !== undefined && deviceChoice.devices.length > 0;
  if (sources.length === 0 && !choosing) return null;
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
      ) : choosing ? (
        <p id="start-from-hint" className="frp-muted">
          This resource has no earlier package. Choose its device to copy the header values and the DCC choice
          of an earlier package of that device; you check and change them in the next steps.
        </p>
      ) : (
        <p id="start-from-hint" className="frp-muted">
          Copy the header values and the DCC choice of an earlier package of this resource or device; you
          check and change them in the next steps.
        </p>
      )}
      {choosing ? (
        <SelectField
          label="Device"
          value={deviceChoice.device}
          onChange={(e) => deviceChoice.onDevice(e.target.value)}
          descriptiveText={
            deviceChoice.device === ''
              ? 'The DCC Device ID whose earlier packages you may start from'
              : deviceChoice.loading
                ? `Reading the earlier packages of ${deviceChoice.device}…`
                : sources.length === 0
                  ? `No earlier package of this resource type names the DCC Device ID ${deviceChoice.device}.`
                  : `${sources.length} earlier package${sources.length === 1 ? '' : 's'} of ${deviceChoice.device}`
          }
        >
          <option value="">No device chosen</option>
          {deviceChoice.devices.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </SelectField>
      ) : null}
      {sources.length > 0 ? (
        <CheckboxField
          label="Copy the header and DCC from an earlier package"
          name="startFrom"
          checked={value !== null}
          onChange={(e) => onChange(e.target.checked ? ((proposed ?? sources[0])?.id ?? null) : null)}
        />
      ) : null}
      {value !== null && sources.length > 0 ? (
        <SelectField
          label="Earlier package"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          descriptiveText={
            // the whole choice in words: a narrow select cuts its option text (1366×768)
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
