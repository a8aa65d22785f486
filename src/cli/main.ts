import { Command, CommanderError } from 'commander';
import { isStationError } from '../core/errors/station-error.js';

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
};

export async function main(argv: string[]): Promise<number> {
  const program = new Command('signing-station')
    .description('Local signing station: an offline twin of an identification, signing and timestamping service')
    .showHelpAfterError()
    .exitOverride();
  const named = argv[2] !== undefined && Object.hasOwn(COMMANDS, argv[2]) ? [argv[2]] : Object.keys(COMMANDS);
  for (const register of await Promise.all(named.map((name) => COMMANDS[name]!()))) register(program);
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
