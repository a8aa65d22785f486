// Runs `sign` as the signing-station command does, in a child process (real stdin for --pin-stdin, real exit code),
// before the integrator wires registerSignCommand into src/cli/main.ts.
import { Command, CommanderError } from 'commander';
import { isStationError } from '../../src/core/errors/station-error.js';
import { registerSignCommand } from '../../src/cli/commands/sign-command.js';

const program = new Command('signing-station').exitOverride();
registerSignCommand(program);
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
