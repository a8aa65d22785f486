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

// The token sources (PKCS#11 modules, PC/SC) start on first use, to keep them off the station's start and out of
// an idle station; whatever lists tokens must start them and wait rather than answer with none.
describe('token sources started on first use', () => {
  it('none is loaded yet when the station listens, and a certificate list asked at that moment holds the SoftHSM token', async () => {
    const station = await startTestStation({}, { tokenSources: [softHsmTokenSource()] });
    stations.push(station);
    expect(station.tokens.tokens()).toEqual([]);
    const response = await fetch(`${station.baseUrl}/admin/api/overview`, {
      headers: { authorization: `Bearer ${station.issueUiCredential()}`, origin: station.baseUrl },
    });
    expect(response.status).toBe(200);
    const overview = (await response.json()) as Overview;
    const token = overview.tokens.find((described) => described.label === 'Early Token');
    expect(token?.certificates.map((certificate) => certificate.id)).toEqual(['01']);
  });

  it('a station that nothing asked for a token never loads them, and stops cleanly', async () => {
    const station = await startTestStation({}, { tokenSources: [softHsmTokenSource()] });
    expect((await fetch(`${station.baseUrl}/api/health`)).status).toBe(200);
    expect(station.tokens.tokens()).toEqual([]);
    await station.dispose();
    await expect(station.tokens.readyTokens()).resolves.toEqual([]);
  });
});
