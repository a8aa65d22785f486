import * as z from 'zod';
import { stationModeSchema } from './station-mode.js';

/** GET /api/health: liveness for scripts, monitors and web pages looking for the station. */
export const healthSchema = z.object({ status: z.literal('OK'), version: z.string(), mode: stationModeSchema });
export type Health = z.infer<typeof healthSchema>;
