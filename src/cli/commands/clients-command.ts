import type { Command } from 'commander';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { StationError } from '../../core/errors/station-error.js';
import { addStationOptions, type StationOptionValues } from '../station-options.js';
import { withStationData } from '../with-station-data.js';
import { readStdinLine } from '../read-stdin.js';
import { readFile } from 'node:fs/promises';
import type { ClientRegistration, ClientRegistrationInput } from '../../core/schemas/client-registration.js';
import { checkClientFlags } from './client-flags.js';
import { helpExamples } from '../help-examples.js';

interface RegistrationFlags extends StationOptionValues {
  redirectUri?: string[];
  jwks?: string;
  jwksUri?: string;
  allowedIp?: string[];
  allowedOrigin?: string[];
  secretStdin?: boolean;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

const addRegistrationOptions = (command: Command, lists: string): Command =>
  addStationOptions(
    command
      .option('--redirect-uri <uri>', `registered redirect URI (repeatable${lists})`, collect)
      .option('--jwks <file>', 'JSON file with the client’s public JWKS (private_key_jwt)')
      .option('--jwks-uri <url>', 'URL of the client’s JWKS')
      .option('--allowed-ip <ip>', `IP or CIDR allowed to timestamp (repeatable${lists})`, collect)
      .option('--allowed-origin <origin>', `browser origin allowed to call the station for this client (repeatable${lists})`, collect)
      .option('--secret-stdin', 'read the client’s API secret (16 bytes or more) from the first line of stdin into the keychain-backed vault'),
  );

export function registerClientsCommand(program: Command): void {
  const clients = program.command('clients').description('integrators registered with the station');

  addRegistrationOptions(
    clients
      .command('add')
      .description('register a new client (an existing one is changed with `clients update`)')
      .requiredOption('--client-id <id>', 'client identifier (letters, digits, . _ ~ -)'),
    '',
  )
    .addHelpText('after', helpExamples('clients add --client-id shop --allowed-origin https://shop.example --allowed-ip 127.0.0.1 --secret-stdin < secret.txt'))
    .action(async (options: RegistrationFlags & { clientId: string }) => {
      const changes = await registrationChanges(options);
      checkClientFlags({ clientId: options.clientId, ...changes });
      const saved = await withSecret(options, (secret) =>
        withStationData(options, async (data) => {
          if (await data.clients.find(options.clientId)) throw clientExists(options.clientId);
          return data.clients.upsert({ clientId: options.clientId, ...changes }, secret);
        }),
      );
      process.stdout.write(`client ${saved.clientId} added${saved.hasSecret ? ' (secret in the vault)' : ''}\n`);
    });

  addRegistrationOptions(
    clients
      .command('update')
      .description('change only what is given of a registered client; lists given replace that list')
      .argument('<client-id>'),
    '; replaces the list',
  )
    .addHelpText('after', helpExamples('clients update shop --allowed-ip 10.0.0.0/8 --allowed-ip 127.0.0.1', 'clients update shop --secret-stdin < secret.txt'))
    .action(async (clientId: string, options: RegistrationFlags) => {
      const changes = await registrationChanges(options);
      if (Object.keys(changes).length === 0 && !options.secretStdin) {
        throw new InvalidInputError('Nothing to change: give at least one of --redirect-uri, --jwks, --jwks-uri, --allowed-ip, --allowed-origin, --secret-stdin.');
      }
      checkClientFlags({ clientId, ...changes });
      const saved = await withSecret(options, (secret) => withStationData(options, (data) => data.clients.update(clientId, changes, secret)));
      process.stdout.write(`client ${saved.clientId} updated${saved.hasSecret ? ' (secret in the vault)' : ''}\n`);
    });

  addStationOptions(clients.command('list').description('list registered clients').option('--json', 'machine-readable output').addHelpText('after', helpExamples('clients list --json'))).action(
    async (options: StationOptionValues & { json?: boolean }) => {
      const list = await withStationData(options, (data) => data.clients.list());
      process.stdout.write(options.json ? `${JSON.stringify(list, null, 2)}\n` : formatClients(list));
    },
  );

  addStationOptions(clients.command('remove').description('remove a client and its secret').argument('<client-id>').addHelpText('after', helpExamples('clients remove shop'))).action(
    async (clientId: string, options: StationOptionValues) => {
      await withStationData(options, (data) => data.clients.remove(clientId));
      process.stdout.write(`client ${clientId} removed\n`);
    },
  );
}

/** The fields the flags set, and only those: `update` must not touch what was not given. */
async function registrationChanges(options: RegistrationFlags): Promise<Partial<Omit<ClientRegistrationInput, 'clientId'>>> {
  return {
    ...(options.redirectUri ? { redirectUris: options.redirectUri } : {}),
    ...(options.allowedIp ? { allowedIps: options.allowedIp } : {}),
    ...(options.allowedOrigin ? { allowedOrigins: options.allowedOrigin } : {}),
    ...(options.jwks ? { jwks: await readJwks(options.jwks) } : {}),
    ...(options.jwksUri ? { jwksUri: options.jwksUri } : {}),
  };
}

/** Reads the secret only when asked, and zeroes it whatever happens. */
async function withSecret<T>(options: RegistrationFlags, work: (secret: Buffer | undefined) => Promise<T>): Promise<T> {
  const secret = options.secretStdin ? await readStdinLine() : undefined;
  try {
    return await work(secret);
  } finally {
    secret?.fill(0);
  }
}

function clientExists(clientId: string): StationError {
  return new StationError(
    'ERR_CLIENT_EXISTS',
    `Client ${clientId} is already registered and was left unchanged. Change only what you give with: signing-station clients update ${clientId} [--allowed-ip IP]… [--secret-stdin]`,
    { status: 409 },
  );
}

async function readJwks(path: string): Promise<{ keys: Array<{ kty: string }> }> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as { keys: Array<{ kty: string }> };
  } catch (cause) {
    throw new InvalidInputError(`--jwks ${path} is not a readable JSON file (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}).`);
  }
}

function formatClients(list: ClientRegistration[]): string {
  if (list.length === 0) return 'no clients registered\n';
  return list
    .map((c) =>
      [
        c.clientId,
        `  redirect URIs:   ${c.redirectUris.join(', ') || '-'}`,
        `  keys:            ${c.jwksUri ?? (c.jwks ? `${c.jwks.keys.length} in JWKS` : '-')}`,
        `  allowed IPs:     ${c.allowedIps.join(', ') || '-'}`,
        `  allowed origins: ${c.allowedOrigins.join(', ') || '-'}`,
        `  secret:          ${c.hasSecret ? 'set' : 'none'}`,
      ].join('\n'),
    )
    .join('\n')
    .concat('\n');
}
