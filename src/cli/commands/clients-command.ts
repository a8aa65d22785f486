import type { Command } from 'commander';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { addStationOptions, type StationOptionValues } from '../station-options.js';
import { withStationData } from '../with-station-data.js';
import { readStdinLine } from '../read-stdin.js';
import { readFile } from 'node:fs/promises';
import type { ClientRegistration } from '../../core/schemas/client-registration.js';

interface AddOptions extends StationOptionValues {
  clientId: string;
  redirectUri: string[];
  jwks?: string;
  jwksUri?: string;
  allowedIp: string[];
  allowedOrigin: string[];
  secretStdin?: boolean;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerClientsCommand(program: Command): void {
  const clients = program.command('clients').description('integrators registered with the station');

  addStationOptions(
    clients
      .command('add')
      .description('register (or update) a client')
      .requiredOption('--client-id <id>', 'client identifier')
      .option('--redirect-uri <uri>', 'registered redirect URI (repeatable)', collect, [])
      .option('--jwks <file>', 'JSON file with the client’s public JWKS (private_key_jwt)')
      .option('--jwks-uri <url>', 'URL of the client’s JWKS')
      .option('--allowed-ip <ip>', 'IP or CIDR allowed to timestamp (repeatable)', collect, [])
      .option('--allowed-origin <origin>', 'browser origin allowed to call the station for this client (repeatable)', collect, [])
      .option('--secret-stdin', 'read the client’s API secret from stdin into the keychain-backed vault'),
  ).action(async (options: AddOptions) => {
    const jwks = options.jwks ? await readJwks(options.jwks) : undefined;
    const secret = options.secretStdin ? await readStdinLine() : undefined;
    try {
      const saved = await withStationData(options, (data) =>
        data.clients.upsert(
          {
            clientId: options.clientId,
            redirectUris: options.redirectUri,
            allowedIps: options.allowedIp,
            allowedOrigins: options.allowedOrigin,
            ...(jwks ? { jwks } : {}),
            ...(options.jwksUri ? { jwksUri: options.jwksUri } : {}),
          },
          secret,
        ),
      );
      process.stdout.write(`client ${saved.clientId} saved${saved.hasSecret ? ' (secret in the vault)' : ''}\n`);
    } finally {
      secret?.fill(0);
    }
  });

  addStationOptions(clients.command('list').description('list registered clients').option('--json', 'machine-readable output')).action(
    async (options: StationOptionValues & { json?: boolean }) => {
      const list = await withStationData(options, (data) => data.clients.list());
      process.stdout.write(options.json ? `${JSON.stringify(list, null, 2)}\n` : formatClients(list));
    },
  );

  addStationOptions(clients.command('remove').description('remove a client and its secret').argument('<client-id>')).action(
    async (clientId: string, options: StationOptionValues) => {
      await withStationData(options, (data) => data.clients.remove(clientId));
      process.stdout.write(`client ${clientId} removed\n`);
    },
  );
}

async function readJwks(path: string): Promise<{ keys: Array<{ kty: string }> }> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as { keys: Array<{ kty: string }> };
  } catch (cause) {
    throw new InvalidInputError(`Cannot read a JWKS from ${path}: ${(cause as Error).message}`);
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
