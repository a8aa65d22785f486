import * as z from 'zod';
import { DEFAULT_PORT } from '../../core/constants.js';
import { stationModeSchema } from '../../core/schemas/station-mode.js';
import { atrMappingSchema } from '../../core/schemas/atr-mapping.js';

/** Everything the station needs to start, validated once at construction (createStation). */
export const stationConfigSchema = z
  .object({
    host: z.literal('127.0.0.1', { message: 'the station listens on 127.0.0.1 only' }).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(DEFAULT_PORT),
    dataDir: z.string().min(1),
    mode: stationModeSchema.default('sandbox'),
    keyStore: z.enum(['os', 'passphrase']).default('os'),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Base URL of a real service that the integrator-server role forwards to instead of the embedded one. */
    remoteServiceUrl: z.string().url().optional(),
    /** Extra PKCS#11 module paths to load besides the known ones for this OS. */
    pkcs11Modules: z.array(z.string()).default([]),
    /**
     * Directories, besides the OS's standard library directories and p11-kit's registered modules, whose PKCS#11
     * libraries may be added from the UI or the CLI without confirming the file's SHA-256.
     */
    pkcs11AllowedModuleDirs: z.array(z.string().min(1)).default([]),
    /** PC/SC readers: switch off where no smart card service exists; map unknown cards' ATRs to a driver. */
    pcsc: z
      .object({ enabled: z.boolean().default(true), atrMap: z.array(atrMappingSchema).default([]) })
      .strict()
      .default({ enabled: true, atrMap: [] }),
    /**
     * Identification with a local ID card or USB token: the CA certificates (PEM files) whose certificates identify
     * people. Required in production mode; in sandbox mode, without it, any issuer is accepted (test cards).
     */
    identity: z
      .object({ trustedIssuers: z.array(z.string().min(1)).default([]) })
      .strict()
      .default({ trustedIssuers: [] }),
    /** Verification never fetches revocation data (OCSP, CRLs): only what signatures embed counts. */
    verifyOffline: z.boolean().default(false),
    /**
     * The TSA key on a PKCS#11 token instead of the station's own (src/station/tsa/README.md). The PIN is never in
     * this file: it comes from the environment (SIGNING_STATION_TSA_PIN) at start.
     */
    tsa: z
      .object({
        token: z
          .object({
            /** The token label (CKA_LABEL of the token, as `signing-station tokens list` shows it). */
            label: z.string().min(1),
            /** CKA_ID of the TSA certificate and its key, hex. */
            certificateId: z
              .string()
              .regex(/^(?:[0-9a-fA-F]{2})+$/, 'certificateId is the CKA_ID in hex, e.g. "01"')
              .transform((id) => id.toLowerCase()),
            /** PKCS#11 module to load for it, when it is not one the station knows or already loads. */
            module: z.string().min(1).optional(),
            /** PEM file with the TSA certificate's issuers up to the root (tokens do not hand out CA certificates). */
            chainFile: z.string().min(1).optional(),
          })
          .strict(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type StationConfigInput = z.input<typeof stationConfigSchema>;
export type StationConfig = z.output<typeof stationConfigSchema>;
