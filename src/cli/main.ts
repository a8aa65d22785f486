import { Command } from 'commander';
import { describeFailure } from './failures/describe-failure.js';
import { stationVersion } from './station-version.js';

type Register = (program: Command) => void;

/**
 * Each command's module, loaded only when that command runs (all of them for help and unknown commands): `serve`
 * then never parses the signing engines, `clients` never the station's HTTP server.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  serve: async () => (await import('./commands/serve-command.js')).registerServeCommand,
  clients: async () => (await import('./commands/clients-command.js')).registerClientsCommand,
  audit: async () => (await import('./commands/audit-command.js')).registerAuditCommand,
  tsa: async () => (await import('./commands/tsa-command.js')).registerTsaCommand,
  timestamp: async () => (await import('./commands/timestamp-command.js')).registerTimestampCommand,
  tokens: async () => (await import('./commands/tokens-command.js')).registerTokensCommand,
  sign: async () => (await import('./commands/sign-command.js')).registerSignCommand,
  verify: async () => (await import('./commands/verify-command.js')).registerVerifyCommand,
  trust: async () => (await import('./commands/trust-command.js')).registerTrustCommand,
  ui: async () => (await import('./commands/ui-command.js')).registerUiCommand,
  backup: async () => (await import('./commands/backup-command.js')).registerBackupCommand,
  restore: async () => (await import('./commands/restore-command.js')).registerRestoreCommand,
  reset: async () => (await import('./commands/reset-command.js')).registerResetCommand,
};

export async function main(argv: string[]): Promise<number> {
  const program = new Command('signing-station')
    .description('Local signing station: an offline twin of an identification, signing and timestamping service')
    .version(stationVersion(), '-V, --version', 'print the version')
    .showHelpAfterError('(add --help for usage and examples)')
    .exitOverride();
  const named = argv[2] !== undefined && Object.hasOwn(COMMANDS, argv[2]) ? [argv[2]] : Object.keys(COMMANDS);
  for (const register of await Promise.all(named.map((name) => COMMANDS[name]!()))) register(program);
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
