import * as z from 'zod';

const hexBytes = z
  .string()
  .transform((value) => value.replace(/[\s:]/g, '').toUpperCase())
  .refine((value) => /^([0-9A-F]{2}){2,33}$/.test(value), 'hex bytes (2 to 33), spaces or colons allowed');

/**
 * Maps a card's ATR to its driver, in the station's configuration (`pcsc.atrMap`). With a mask, only the bits
 * set in the mask are compared, so one entry covers a card family whose ATR differs in a version byte.
 */
export const atrMappingSchema = z
  .object({
    atr: hexBytes,
    mask: hexBytes.optional(),
    /** What the card is, shown in the UI. */
    name: z.string().min(1),
    driver: z.discriminatedUnion('kind', [
      /** A card the station drives itself, APDU by APDU. */
      z.object({ kind: z.literal('apdu'), driver: z.literal('national-id'), extendedLength: z.boolean().default(false) }),
      /** A card that a PKCS#11 module serves (OpenSC, a vendor library), used through the PKCS#11 bridge. */
      z.object({ kind: z.literal('pkcs11'), module: z.string().min(1) }),
    ]),
  })
  .refine((entry) => entry.mask === undefined || entry.mask.length === entry.atr.length, {
    message: 'mask and ATR must be the same length',
    path: ['mask'],
  });
export type AtrMapping = z.infer<typeof atrMappingSchema>;
export type AtrMappingInput = z.input<typeof atrMappingSchema>;
