import type { Command } from 'commander';
import { StationError } from '../../core/errors/station-error.js';
import { readUiControl } from '../../station/http/ui-control.js';
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
      const control = await readUiControl(dataDir);
      if (!control) throw notRunning(dataDir);
      const response = await fetch(`${control.baseUrl}/admin/api/launch-link`, { method: 'POST', headers: { authorization: `Station-Control ${control.secret}` } }).catch(
        (error: unknown) => {
          throw notRunning(dataDir, error);
        },
      );
      if (!response.ok) throw new StationError('ERR_UI_CONTROL_FORBIDDEN', `The station at ${control.baseUrl} refused to give a link (HTTP ${response.status}); restart it.`);
      const { url } = (await response.json()) as { url: string };
      process.stdout.write(`${url}\n`);
    });
}

function notRunning(dataDir: string, cause?: unknown): StationError {
  return new StationError('ERR_UI_STATION_NOT_RUNNING', `No station is running with the data directory ${dataDir}: start one with \`signing-station serve\`.`, cause === undefined ? {} : { cause });
}
