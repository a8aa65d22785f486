import * as z from 'zod';

/** POST /admin/api/pkcs11/modules: a PKCS#11 library, or an NSS database directory, to load from now on. */
export const pkcs11ModuleAddRequestSchema = z
  .object({
    path: z.string().min(1).max(4096),
    kind: z.enum(['module', 'nss-database']).default('module'),
  })
  .strict();
export type Pkcs11ModuleAddRequest = z.input<typeof pkcs11ModuleAddRequestSchema>;

/** GET /admin/api/pkcs11/modules: what is loaded, what the user added, and what went wrong. */
export const pkcs11ModulesViewSchema = z.object({
  loaded: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      kind: z.enum(['pkcs11', 'store']),
      origin: z.enum(['known', 'user', 'config']),
    }),
  ),
  user: z.array(z.object({ path: z.string(), kind: z.enum(['module', 'nss-database']), addedAt: z.string() })),
  problems: z.array(z.object({ source: z.string(), message: z.string(), code: z.string().optional() })),
});
export type Pkcs11ModulesView = z.infer<typeof pkcs11ModulesViewSchema>;
