import * as z from 'zod';

/**
 * GET/PUT /admin/api/tokens/unlock-time: how long a token stays logged in after a signature, so the next one asks
 * no PIN; 0 asks every time (a key that demands its PIN per signature asks anyway).
 */
export const pinUnlockTimeSchema = z.object({ seconds: z.number().int().min(0).max(3600) });
export type PinUnlockTime = z.infer<typeof pinUnlockTimeSchema>;

export const tokenParamsSchema = z.object({ tokenId: z.string().min(1).max(200) });
