import * as z from 'zod';
import { overviewSchema, pendingPromptSchema } from './admin-api.js';
import { auditEntrySchema } from './audit-entry.js';
import { pkcs11ModulesViewSchema } from './pkcs11-modules.js';

/**
 * Everything the station window shows, in one document: GET /admin/api/state, and each `state` event of
 * GET /admin/api/events. The CLI and the window read the same stores, so both show the same station.
 */
export const stationStateSchema = overviewSchema.extend({
  prompts: z.array(pendingPromptSchema),
  audit: z.array(auditEntrySchema),
  /** Absent when the host pinned its own token sources (tests): there are no user modules to manage then. */
  modules: pkcs11ModulesViewSchema.optional(),
  /** Where signed and timestamped files are written (never over an original). */
  outputDir: z.string(),
});
export type StationState = z.infer<typeof stationStateSchema>;
