import * as z from 'zod';

/** An absolute path on any of the station's systems: `/…`, `C:\…` or `\\server\share\…`. */
const ABSOLUTE_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

/**
 * GET/PUT /admin/api/desk/output-folder: where the window saves what it signs and timestamps. The station checks
 * the rest on its disk (a directory of this user's, writable) before it stores the choice.
 */
export const outputFolderSchema = z.object({
  path: z
    .string()
    .min(1)
    .max(4096)
    .refine((path) => ABSOLUTE_PATH.test(path), 'must be an absolute path')
    .refine((path) => !path.includes('\0'), 'must not contain a NUL character'),
});
export type OutputFolder = z.infer<typeof outputFolderSchema>;
