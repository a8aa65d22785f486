// Runs the `tokens` commands the way src/cli/main.ts runs every command (commander, StationError -> exit 1 with
// "message (CODE)" on stderr), for tests that drive the CLI in a child process.
import { Command, CommanderError } from 'commander';
import { isStationError } from '../../../src/core/errors/station-error.js';
import { registerTokensCommand } from '../../../src/cli/commands/tokens-command.js';

const program = new Command('signing-station').exitOverride();
registerTokensCommand(program);
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  if (isStationError(error)) {
    process.stderr.write(`signing-station: ${error.message} (${error.code})\n`);
    process.exit(1);
  }
  throw error;
}
