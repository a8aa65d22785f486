import { Command, CommanderError } from 'commander';
import { isStationError } from '../core/errors/station-error.js';
import { registerServeCommand } from './commands/serve-command.js';
import { registerClientsCommand } from './commands/clients-command.js';
import { registerAuditCommand } from './commands/audit-command.js';
import { registerTsaCommand } from './commands/tsa-command.js';
import { registerTimestampCommand } from './commands/timestamp-command.js';
import { registerTokensCommand } from './commands/tokens-command.js';
import { registerSignCommand } from './commands/sign-command.js';
import { registerUiCommand } from './commands/ui-command.js';

export async function main(argv: string[]): Promise<number> {
  const program = new Command('signing-station')
    .description('Local signing station: an offline twin of an identification, signing and timestamping service')
    .showHelpAfterError()
    .exitOverride();
  registerServeCommand(program);
  registerClientsCommand(program);
  registerAuditCommand(program);
  registerTsaCommand(program);
  registerTimestampCommand(program);
  registerTokensCommand(program);
  registerSignCommand(program);
  registerUiCommand(program);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (isStationError(error)) {
      process.stderr.write(`signing-station: ${error.message} (${error.code})\n`);
      return 1;
    }
    process.stderr.write(`signing-station: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 70;
  }
}
