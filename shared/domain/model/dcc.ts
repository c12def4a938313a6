export const TELEMETRY_TYPES = ['TelA', 'TelB', 'BLE'] as const;
export type TelemetryType = (typeof TELEMETRY_TYPES)[number];
export const MIN_MESSAGE_LIMIT = 16;

/** A device communication configuration's values (spec §3, §5); the API checks them (contracts/dcc.ts). */
export interface DccValues {
  deviceId: string;
  telemetryType: TelemetryType;
  messageLimit: number;
  deviceLimit: number;
}

export interface Dcc extends DccValues {
  id: string;
  createdAt: string;
  createdBy: { id: string; name: string };
}
