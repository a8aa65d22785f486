import { startOidcTestStation, type OidcTestStation } from './oidc-test-station.js';
import { createRelyingParty, type RelyingParty } from './oidc-relying-party.js';

/** The usual OIDC test setup: a sandbox station and one registered relying party (openid-client). */
export async function startStationWithRelyingParty(
  options: Parameters<typeof startOidcTestStation>[0] = {},
): Promise<{ station: OidcTestStation; rp: RelyingParty }> {
  const station = await startOidcTestStation(options);
  return { station, rp: await createRelyingParty(station) };
}

/** Tolerates a setup that failed half-way (either may be undefined). */
export async function stopStationWithRelyingParty(station: OidcTestStation | undefined, rp: RelyingParty | undefined): Promise<void> {
  await rp?.close();
  await station?.dispose();
}
