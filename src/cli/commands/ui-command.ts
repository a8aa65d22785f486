import type { Command } from 'commander';
import { requestLaunchLink } from '../../station/http/request-launch-link.js';
import { resolveConfig, type StationOptionValues } from '../station-options.js';

/**
 * `signing-station ui`: a new one-time link to the running station's UI, for when the printed one was used or
 * lost. Asks the station through its control file (readable by this user only), so no restart is needed.
 */
export function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .description('print a new one-time link to the running station’s UI')
    .option('--config <file>', 'JSON config file')
    .option('--data-dir <dir>', 'data directory of the running station (default: per-user, or SIGNING_STATION_DATA_DIR)')
    .action(async (options: Pick<StationOptionValues, 'config' | 'dataDir'>) => {
      const { dataDir } = await resolveConfig(options);
      process.stdout.write(`${await requestLaunchLink(dataDir)}\n`);
    });
}
