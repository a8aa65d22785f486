import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '../../../src/core/schemas/admin-api.js';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { createSoftHsm, softHsmTokenSource, type SoftHsm } from '../../support/pkcs11/pkcs11-softhsm.js';

let softhsm: SoftHsm;
const stations: TestStation[] = [];

beforeAll(async () => {
  softhsm = await createSoftHsm();
  await softhsm.createToken('Early Token', '1234', [{ id: '01', algorithm: 'P-256', usage: 'signing' }]);
});

afterAll(async () => {
  await Promise.all(stations.map((station) => station.dispose()));
  await softhsm?.dispose();
});

// The token sources (PKCS#11 modules, PC/SC) start just after the station listens, to keep them off its start;
// whatever lists tokens must wait for them rather than answer with none.
describe('token sources starting after the station listens', () => {
  it('none is loaded yet when the station listens, and a certificate list asked at that moment holds the SoftHSM token', async () => {
    const station = await startTestStation({}, { tokenSources: [softHsmTokenSource()] });
    stations.push(station);
    expect(station.tokens.tokens()).toEqual([]);
    // Injected, the request reaches the route before the sources have had a turn of the event loop to start.
    const response = await station.http.inject({
      url: '/admin/api/overview',
      headers: { host: new URL(station.baseUrl).host, authorization: `Bearer ${station.issueUiCredential()}`, origin: station.baseUrl },
    });
    expect(response.statusCode).toBe(200);
    const overview = response.json<Overview>();
    const token = overview.tokens.find((described) => described.label === 'Early Token');
    expect(token?.certificates.map((certificate) => certificate.id)).toEqual(['01']);
  });

  it('a station closed right as it listens answers what waited for the tokens and unloads them', async () => {
    const station = await startTestStation({}, { tokenSources: [softHsmTokenSource()] });
    const waiting = station.tokens.readyTokens();
    await station.dispose();
    await expect(waiting).resolves.toBeInstanceOf(Array);
    expect(station.tokens.tokens()).toEqual([]);
  });
});
