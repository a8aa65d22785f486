import * as z from 'zod';

/**
 * ETSI baseline levels (EN 319 142-1 PAdES, EN 319 132-1 XAdES): B-B signed, B-T with a signature timestamp, B-LT
 * with the certificates and revocation data to validate it later, B-LTA with a timestamp over all of that.
 */
export const signatureBaselineSchema = z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']);
export type SignatureBaseline = z.infer<typeof signatureBaselineSchema>;
