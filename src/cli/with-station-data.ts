import type { StationConfig } from '../station/config/station-config.js';
import { openStationData, type StationData } from '../station/open-station-data.js';
import { openKeyStore, resolveConfig, type StationOptionValues } from './station-options.js';

/** Opens the data directory for an offline command (no server), runs `work`, and always closes the store. */
export async function withStationData<T>(values: StationOptionValues, work: (data: StationData, config: StationConfig) => Promise<T>): Promise<T> {
  const config = await resolveConfig(values);
  const data = await openStationData(config, openKeyStore(config));
  try {
    return await work(data, config);
  } finally {
    await data.close();
  }
}
