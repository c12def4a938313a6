import * as z from 'zod';
import { MSG } from '../../messages';
import { visibleText } from './common';

export const TELEMETRY_TYPES = ['TelA', 'TelB', 'BLE'] as const;
export type TelemetryType = (typeof TELEMETRY_TYPES)[number];
export const MIN_MESSAGE_LIMIT = 16;

const limit = z
  .union([z.number(), z.string().regex(/^\d+$/, { error: 'Limits accept only numbers' }).transform(Number)], {
    error: 'Limits accept only numbers',
  })
  .pipe(z.number().int({ error: 'Limits accept only numbers' }).min(0).max(4294967295));

/** Device communication configuration (spec §3, §5). */
export const createDccSchema = z
  .object({
    deviceId: visibleText('name', 'Device ID', 'Device ID is required', 64),
    telemetryType: z.enum(TELEMETRY_TYPES, { error: 'Telemetry type must be TelA, TelB or BLE' }),
    messageLimit: limit,
    deviceLimit: limit,
  })
  .refine((d) => d.messageLimit >= MIN_MESSAGE_LIMIT, { error: MSG.dccMessageLimit, path: ['messageLimit'] })
  .refine((d) => d.deviceLimit >= d.messageLimit, { error: MSG.dccDeviceLimit, path: ['deviceLimit'] });
export type CreateDcc = z.infer<typeof createDccSchema>;

export interface Dcc extends CreateDcc {
  id: string;
  createdAt: string;
  createdBy: { id: string; name: string };
}
