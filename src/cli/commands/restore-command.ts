import type { Command } from 'commander';
import { restoreStore } from '../../station/store/restore-store.js';
import { addStationOptions, openKeyStore, resolveConfig, type StationOptionValues } from '../station-options.js';
import { helpExamples } from '../help-examples.js';

/** `signing-station restore FILE`: a backup in place of the store, while no station runs (docs/operations.md). */
export function registerRestoreCommand(program: Command): void {
  addStationOptions(
    program
      .command('restore')
      .description('put a backup in place of the store; refused while a station runs with the data directory')
      .argument('<file>', 'a file written by `signing-station backup`')
      .addHelpText('after', helpExamples('restore ~/station-backup.sqlite')),
  ).action(async (file: string, options: StationOptionValues) => {
    const config = await resolveConfig(options);
    const { stationId, replaced } = await restoreStore(config.dataDir, file, openKeyStore(config));
    process.stderr.write(`restored station ${stationId} from ${file}${replaced ? `; the replaced files are in ${replaced}` : ''}\n`);
  });
}
