import { readFile } from 'node:fs/promises';
import { StationError } from '../../core/errors/station-error.js';
import { parseZod } from '../validation/parse-zod.js';
import { stationConfigSchema, type StationConfig, type StationConfigInput } from './station-config.js';
import { defaultDataDir } from './default-data-dir.js';

/**
 * Merges, lowest first: defaults, the JSON config file (when given), then command-line flags.
 * Unknown keys in the file are errors, so a typo never silently falls back to a default.
 */
export async function loadStationConfig(configFile: string | undefined, flags: Partial<StationConfigInput>): Promise<StationConfig> {
  let fromFile: Record<string, unknown> = {};
  if (configFile) {
    let text: string;
    try {
      text = await readFile(configFile, 'utf8');
    } catch (cause) {
      throw new StationError('ERR_CONFIG_UNREADABLE', `Cannot read the config file ${configFile}: ${(cause as Error).message}`, { status: 400, cause });
    }
    try {
      fromFile = JSON.parse(text) as Record<string, unknown>;
    } catch (cause) {
      throw new StationError('ERR_CONFIG_INVALID', `The config file ${configFile} is not valid JSON: ${(cause as Error).message}`, { status: 400, cause });
    }
  }
  const defined = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
  return parseZod(stationConfigSchema, { dataDir: defaultDataDir(), ...fromFile, ...defined }, 'Invalid station configuration');
}
