import { Command } from 'commander';
import { registerServeCommand } from './commands/serve-command.js';
import { registerClientsCommand } from './commands/clients-command.js';
import { registerAuditCommand } from './commands/audit-command.js';
import { registerTsaCommand } from './commands/tsa-command.js';
import { registerTimestampCommand } from './commands/timestamp-command.js';
import { registerTokensCommand } from './commands/tokens-command.js';
import { registerSignCommand } from './commands/sign-command.js';
import { registerVerifyCommand } from './commands/verify-command.js';
import { registerUiCommand } from './commands/ui-command.js';
import { describeFailure } from './failures/describe-failure.js';
import { stationVersion } from './station-version.js';

export async function main(argv: string[]): Promise<number> {
  const program = new Command('signing-station')
    .description('Local signing station: an offline twin of an identification, signing and timestamping service')
    .version(stationVersion(), '-V, --version', 'print the version')
    .showHelpAfterError('(add --help for usage and examples)')
    .exitOverride();
  registerServeCommand(program);
  registerClientsCommand(program);
  registerAuditCommand(program);
  registerTsaCommand(program);
  registerTimestampCommand(program);
  registerTokensCommand(program);
  registerSignCommand(program);
  registerVerifyCommand(program);
  registerUiCommand(program);
  try {
    await program.parseAsync(argv);
    // A command that answers "no" without failing (verify of an invalid signature) sets the exit code itself.
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    const failure = describeFailure(error);
    if (failure.message) process.stderr.write(`signing-station: ${failure.message}\n`);
    if (process.env.SIGNING_STATION_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return failure.exitCode;
  }
}
