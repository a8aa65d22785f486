import type { Command } from 'commander';
import { backupStore } from '../../station/store/backup-store.js';
import { addStationOptions, type StationOptionValues } from '../station-options.js';
import { withStationData } from '../with-station-data.js';
import { helpExamples } from '../help-examples.js';

/** `signing-station backup FILE`: an online, consistent copy of the store (the recovery path: docs/operations.md). */
export function registerBackupCommand(program: Command): void {
  addStationOptions(
    program
      .command('backup')
      .description('write a consistent copy of the store to FILE, also while the station runs (never over an existing file)')
      .argument('<file>', 'the backup file to create')
      .addHelpText('after', helpExamples('backup ~/station-backup.sqlite')),
  ).action(async (file: string, options: StationOptionValues) => {
    await withStationData(options, (data) => backupStore(data.database, file));
    process.stderr.write(`backed up: ${file}\n`);
  });
}
