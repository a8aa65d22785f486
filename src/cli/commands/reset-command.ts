import type { Command } from 'commander';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { resetStore } from '../../station/store/reset-store.js';
import { addStationOptions, resolveConfig, type StationOptionValues } from '../station-options.js';
import { helpExamples } from '../help-examples.js';

/** `signing-station reset --yes`: a new station in the data directory, the old store set aside (docs/operations.md). */
export function registerResetCommand(program: Command): void {
  addStationOptions(
    program
      .command('reset')
      .description('start a new station in the data directory: the store is set aside (clients, secrets and the audit log start empty)')
      .option('--yes', 'confirm: without it nothing changes')
      .addHelpText('after', helpExamples('reset --yes')),
  ).action(async (options: StationOptionValues & { yes?: boolean }) => {
    const config = await resolveConfig(options);
    if (!options.yes) {
      throw new InvalidInputError(`reset sets the store of ${config.dataDir} aside and starts a new station there: add --yes to confirm.`, { yes: ['required'] });
    }
    const aside = await resetStore(config.dataDir);
    process.stderr.write(aside ? `reset: the earlier store is in ${aside}\n` : `reset: ${config.dataDir} held no store\n`);
  });
}
