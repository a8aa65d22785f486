import type { ClientCreateRequest, PromptAnswer, VerifyRequest } from '../../core/schemas/admin-api.js';
import type { DocumentVerification } from '../../core/schemas/verification-report.js';
import type { ClientRegistration } from '../../core/schemas/client-registration.js';
import type { JsonErrorBody } from '../../core/schemas/json-error-body.js';
import type { Pkcs11ModuleAddRequest } from '../../core/schemas/pkcs11-modules.js';
import type { DeskIdentifyCompleteRequest, DeskIdentifyMethod, DeskIdentifyRequest, DeskIdentifyStarted, DeskPlacementRequest, DeskPlacementResponse, DeskSavedFile, DeskTimestampRequest } from '../../core/schemas/desk-api.js';
import type { IdentifiedPerson } from '../../core/schemas/identity-api.js';
import type { PinUnlockTime } from '../../core/schemas/pin-unlock.js';
import type { OutputFolder } from '../../core/schemas/output-folder.js';
import { forgetUiCredential, LinkProblem, uiCredential } from './ui-credential.js';
import { passedOn, type BrowserErrorCode, type PassedOnErrorCode } from '../../core/errors/browser-error-codes.js';

/** An error answered by the station, rebuilt with its stable code and field errors. */
export class StationApiError extends Error {
  constructor(
    message: string,
    readonly code: BrowserErrorCode | PassedOnErrorCode,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = 'StationApiError';
  }
}

/**
 * One call to the station from this page. Answers are not re-validated here: they come from the station's own
 * origin over its own credential, their shapes are the core schemas the station validates its side with, and
 * leaving zod out of the window keeps its first paint small.
 */
export async function stationCall<T>(path: string, init: RequestInit = {}): Promise<T> {
  const authorization = `Bearer ${await uiCredential()}`;
  const response = await fetch(path, {
    ...init,
    credentials: 'omit',
    headers: init.body ? { authorization, 'content-type': 'application/json' } : { authorization },
  });
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

async function errorOf(response: Response): Promise<Error> {
  if (response.status === 401) {
    forgetUiCredential();
    return new LinkProblem('used');
  }
  const body = (await response.json().catch(() => undefined)) as JsonErrorBody | undefined;
  if (body?.message) return new StationApiError(body.message, body.code ? passedOn(body.code) : 'ERR_UNKNOWN', body.errors ?? {});
  return new StationApiError(`The station answered HTTP ${response.status}.`, 'ERR_HTTP');
}

const post = <T>(path: string, body: unknown): Promise<T> => stationCall<T>(path, { method: 'POST', body: JSON.stringify(body) });

export const stationApi = {
  answerPrompt: (id: string, answer: PromptAnswer): Promise<void> => post(`/admin/api/prompts/${encodeURIComponent(id)}`, answer),
  addClient: (request: ClientCreateRequest): Promise<ClientRegistration> => post('/admin/api/clients', request),
  removeClient: (clientId: string): Promise<void> => stationCall(`/admin/api/clients/${encodeURIComponent(clientId)}`, { method: 'DELETE' }),
  addModule: (request: Pkcs11ModuleAddRequest): Promise<void> => post('/admin/api/pkcs11/modules', request),
  removeModule: (path: string): Promise<void> => stationCall(`/admin/api/pkcs11/modules?path=${encodeURIComponent(path)}`, { method: 'DELETE' }),
  saveSigned: (docId: string): Promise<DeskSavedFile> => post(`/admin/api/desk/sessions/${encodeURIComponent(docId)}/save`, {}),
  timestamp: (file: DeskTimestampRequest): Promise<DeskSavedFile> => post('/admin/api/desk/timestamp', file),
  placement: (request: DeskPlacementRequest): Promise<DeskPlacementResponse> => post('/admin/api/desk/placement', request),
  verify: (request: VerifyRequest): Promise<DocumentVerification> => post('/admin/api/verify', request),
  identifyMethods: (): Promise<DeskIdentifyMethod[]> => stationCall('/admin/api/desk/identify'),
  identifyStart: (request: DeskIdentifyRequest): Promise<DeskIdentifyStarted> => post('/admin/api/desk/identify', request),
  identifyComplete: (request: DeskIdentifyCompleteRequest): Promise<IdentifiedPerson> => post('/admin/api/desk/identify/complete', request),
  lockToken: (tokenId: string): Promise<void> => post(`/admin/api/tokens/${encodeURIComponent(tokenId)}/lock`, {}),
  unlockTime: (): Promise<PinUnlockTime> => stationCall('/admin/api/tokens/unlock-time'),
  setUnlockTime: (seconds: number): Promise<PinUnlockTime> => stationCall('/admin/api/tokens/unlock-time', { method: 'PUT', body: JSON.stringify({ seconds }) }),
  setOutputFolder: (path: string): Promise<OutputFolder> => stationCall('/admin/api/desk/output-folder', { method: 'PUT', body: JSON.stringify({ path }) }),
};
