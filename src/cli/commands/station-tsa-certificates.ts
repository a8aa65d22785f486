import type { StationData } from '../../station/open-station-data.js';
import { systemClock } from '../../station/ports/clock.js';
import { TimestampAuthority } from '../../station/tsa/timestamp-authority.js';

/** The station's own TSA chain (created on first use, as `serve` would), for commands that run without a server. */
export async function stationTsaCertificates(data: StationData): Promise<readonly Uint8Array[]> {
  const authority = await TimestampAuthority.open({ database: data.database, vault: data.vault, clock: systemClock });
  try {
    return authority.certificates;
  } finally {
    await authority.close();
  }
}
