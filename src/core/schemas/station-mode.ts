import * as z from 'zod';

/**
 * sandbox: provider-backed methods run as documented simulators (the default, and the only mode with OIDC, as the
 * service's beta). production: simulators are refused; local hardware methods are real in both.
 */
export const stationModeSchema = z.enum(['sandbox', 'production']);
export type StationMode = z.infer<typeof stationModeSchema>;
