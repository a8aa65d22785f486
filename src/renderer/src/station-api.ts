import * as z from 'zod';
import {
  overviewSchema,
  pendingPromptSchema,
  type ClientCreateRequest,
  type Overview,
  type PendingPrompt,
  type PromptAnswer,
} from '../../core/schemas/admin-api.js';
import { clientRegistrationSchema, type ClientRegistration } from '../../core/schemas/client-registration.js';
import { jsonErrorBodySchema } from '../../core/schemas/json-error-body.js';
import { auditEntrySchema, type AuditEntry } from '../../core/schemas/audit-entry.js';
import { forgetUiCredential, uiCredential } from './ui-credential.js';
import { pkcs11ModulesViewSchema, type Pkcs11ModuleAddRequest, type Pkcs11ModulesView } from '../../core/schemas/pkcs11-modules.js';

/** An error answered by the station, rebuilt with its stable code and field errors. */
export class StationApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = 'StationApiError';
  }
}

async function call<T>(schema: z.ZodType<T> | null, path: string, init: RequestInit = {}): Promise<T> {
  const authorization = `Bearer ${await uiCredential()}`;
  const response = await fetch(`/admin/api${path}`, {
    ...init,
    credentials: 'omit',
    headers: init.body ? { authorization, 'content-type': 'application/json' } : { authorization },
  });
  if (!response.ok) {
    if (response.status === 401) forgetUiCredential();
    const body = jsonErrorBodySchema.safeParse(await response.json().catch(() => undefined));
    if (body.success) throw new StationApiError(body.data.message, body.data.code ?? 'ERR_UNKNOWN', body.data.errors);
    throw new StationApiError(`The station answered HTTP ${response.status}.`, 'ERR_HTTP');
  }
  if (schema === null) return undefined as T;
  return schema.parse(await response.json());
}

export const stationApi = {
  overview: (): Promise<Overview> => call(overviewSchema, '/overview'),
  audit: (): Promise<AuditEntry[]> => call(z.array(auditEntrySchema), '/audit?limit=50'),
  prompts: (): Promise<PendingPrompt[]> => call(z.array(pendingPromptSchema), '/prompts'),
  answerPrompt: (id: string, answer: PromptAnswer): Promise<void> =>
    call(null, `/prompts/${encodeURIComponent(id)}`, { method: 'POST', body: JSON.stringify(answer) }),
  addClient: (request: ClientCreateRequest): Promise<ClientRegistration> =>
    call(clientRegistrationSchema, '/clients', { method: 'POST', body: JSON.stringify(request) }),
  removeClient: (clientId: string): Promise<void> => call(null, `/clients/${encodeURIComponent(clientId)}`, { method: 'DELETE' }),
  modules: (): Promise<Pkcs11ModulesView> => call(pkcs11ModulesViewSchema, '/pkcs11/modules'),
  addModule: (request: Pkcs11ModuleAddRequest): Promise<void> => call(null, '/pkcs11/modules', { method: 'POST', body: JSON.stringify(request) }),
  removeModule: (path: string): Promise<void> => call(null, `/pkcs11/modules?path=${encodeURIComponent(path)}`, { method: 'DELETE' }),
};
