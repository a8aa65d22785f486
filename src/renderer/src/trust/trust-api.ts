import type { TrustAddRequest, TrustImportRequest, TrustRefreshResult, TrustSources } from '../../../core/schemas/trust-api.js';
import { stationCall } from '../station-api.js';

/** The station's trust API (/admin/api/trust), the same operations as `signing-station trust`. */
export const trustApi = {
  sources: (): Promise<TrustSources> => stationCall('/admin/api/trust'),
  add: (request: TrustAddRequest): Promise<TrustSources['added'][number]> => stationCall('/admin/api/trust/certificates', { method: 'POST', body: JSON.stringify(request) }),
  remove: (fingerprint: string): Promise<void> => stationCall(`/admin/api/trust/certificates/${encodeURIComponent(fingerprint)}`, { method: 'DELETE' }),
  setEuLists: (enabled: boolean): Promise<void> => stationCall('/admin/api/trust/eu', { method: 'PUT', body: JSON.stringify({ enabled }) }),
  importLists: (request: TrustImportRequest): Promise<TrustRefreshResult> => stationCall('/admin/api/trust/lists', { method: 'POST', body: JSON.stringify(request) }),
  refresh: (): Promise<TrustRefreshResult> => stationCall('/admin/api/trust/refresh', { method: 'POST' }),
};
