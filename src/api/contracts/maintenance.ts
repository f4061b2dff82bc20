import { z } from 'zod';

/** `GET /v1/maintenance`: the current banner message, or null when none is set. */
export const maintenanceSchema = z.object({ message: z.string().nullable() });
export type Maintenance = z.infer<typeof maintenanceSchema>;

/** `POST /v1/maintenance` (admin): an empty string clears the message. */
export const setMaintenanceBodySchema = z.object({ message: z.string().trim().max(500, 'Message must be at most 500 characters') });
export type SetMaintenanceBody = z.infer<typeof setMaintenanceBodySchema>;
