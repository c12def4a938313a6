import * as z from 'zod';
import { type DccValues, MIN_MESSAGE_LIMIT, TELEMETRY_TYPES } from '../../domain/model/dcc';
import { MSG } from '../../messages';
import { visibleText } from './common';

// the model lives in the domain; the API's contracts name it from here as before
export * from '../../domain/model/dcc';

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

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <_T extends true>() => undefined;
same<Same<CreateDcc, DccValues>>();
