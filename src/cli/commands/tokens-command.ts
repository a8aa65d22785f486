import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import type { SignatureScheme } from '../../station/tokens/token.js';
import { listTokens, type TokenListing } from '../../station/tokens/pkcs11/list-tokens.js';
import { signDigest } from '../../station/tokens/pkcs11/sign-digest.js';
import { ecdsaRawToDer } from '../../station/pki/ecdsa-raw-to-der.js';
import { Pkcs11ModuleRegistry } from '../../station/tokens/pkcs11/pkcs11-module-registry.js';
import { resolvePkcs11Modules } from '../../station/tokens/pkcs11/resolve-pkcs11-modules.js';
import { SoftTokenStore } from '../../station/tokens/soft/soft-token-store.js';
import { addStationOptions, type StationOptionValues } from '../station-options.js';
import { withStationData } from '../with-station-data.js';
import { HASH_OPTION_VALUES } from '../hash-option.js';
import { readStdinLine } from '../read-stdin.js';
import { cliPinSource } from '../pin/cli-pin-source.js';
import { helpExamples } from '../help-examples.js';
import { HASH_ALGORITHMS } from '../../station/pki/hash-algorithms.js';
import { addTokenSourceOptions, tokenSourcesFor, type TokenSourceFlags } from './tokens-sources.js';

const SCHEMES: Record<string, SignatureScheme> = { pkcs1: 'RSASSA-PKCS1-v1_5', pss: 'RSA-PSS', ecdsa: 'ECDSA' };

type SourceOptions = StationOptionValues & TokenSourceFlags;

const addSourceOptions = (command: Command): Command => addTokenSourceOptions(addStationOptions(command));

/** `signing-station tokens ...`: thin over the station's token functions. PINs and passwords never come from argv. */
export function registerTokensCommand(program: Command): void {
  const tokens = program.command('tokens').description('USB tokens, cards through PKCS#11, and certificate stores');
  registerList(tokens);
  registerSignDigest(tokens);
  registerModules(tokens.command('modules').description('PKCS#11 modules and NSS databases the station loads'));
  registerStore(tokens.command('store').description('the station’s own certificate store (keys imported from PKCS#12 files)'));
}

function registerList(tokens: Command): void {
  addSourceOptions(tokens.command('list').description('tokens, their certificates, key usage and PIN status').option('--json', 'machine-readable output'))
    .addHelpText('after', helpExamples('tokens list', 'tokens list --module /usr/lib/vendor/pkcs11.so --json'))
    .action(async (options: SourceOptions & { json?: boolean }) => {
      const listing = await withStationData(options, (data, config) => listTokens(tokenSourcesFor(data, options, config)));
      process.stdout.write(options.json ? `${JSON.stringify(listing, null, 2)}\n` : formatListing(listing));
    });
}

interface SignDigestOptions extends SourceOptions {
  token: string;
  cert: string;
  hash: string;
  alg: keyof typeof HASH_OPTION_VALUES;
  scheme?: string;
  ecdsaFormat: 'raw' | 'der';
  pinStdin?: boolean;
  json?: boolean;
}

function registerSignDigest(tokens: Command): void {
  addSourceOptions(
    tokens
      .command('sign-digest')
      .description('sign a precomputed hash with a certificate’s key; prints the signature, base64')
      .requiredOption('--token <label-or-id>', 'token label (when unique) or id, as `tokens list` shows')
      .requiredOption('--cert <id>', 'certificate id (hex CKA_ID), as `tokens list` shows')
      .requiredOption('--hash <hex>', 'the hash to sign, hex (64 digits for sha256)')
      .addOption(new Option('--alg <hash>', 'hash algorithm of --hash').choices(Object.keys(HASH_OPTION_VALUES)).default('sha256'))
      .addOption(new Option('--scheme <scheme>', 'default: as documents are signed: pss where the certificate or the token mandates it, else pkcs1 for RSA, ecdsa for EC').choices(Object.keys(SCHEMES)))
      .addOption(new Option('--ecdsa-format <format>', 'ECDSA output: r||s (raw) or DER ECDSA-Sig-Value').choices(['raw', 'der']).default('raw'))
      .option('--pin-stdin', 'read the PIN (or NSS database password) from the first line of stdin instead of asking')
      .option('--json', 'machine-readable output'),
  )
    .addHelpText('after', helpExamples('tokens sign-digest --token "My Token" --cert 0a --hash "$(sha256sum doc.pdf | cut -d" " -f1)"'))
    .action(async (options: SignDigestOptions) => {
      const hash = parseHash(options.hash, options.alg);
      const pin = cliPinSource({ pinStdin: options.pinStdin ?? false, tokenLabel: options.token });
      try {
        const result = await withStationData(options, (data, config) =>
          signDigest({
            sources: tokenSourcesFor(data, options, config),
            token: options.token,
            certificateId: options.cert,
            hash,
            hashAlgorithm: HASH_OPTION_VALUES[options.alg],
            ...(options.scheme ? { scheme: SCHEMES[options.scheme]! } : {}),
            pin: pin.source,
          }),
        );
        process.stdout.write(formatSignature(result, options));
      } finally {
        pin.zero();
      }
    });
}

/** The hash as bytes, refused unless it is hex of exactly the algorithm's length (a token would sign anything). */
function parseHash(hex: string, alg: keyof typeof HASH_OPTION_VALUES): Buffer {
  const { length } = HASH_ALGORITHMS[HASH_OPTION_VALUES[alg]];
  if (!/^([0-9a-fA-F]{2})+$/.test(hex) || hex.length !== length * 2) {
    throw new InvalidInputError(`--hash must be the ${alg} hash in hex: ${length * 2} hex digits, got ${hex.length} characters.`, { hash: ['wrong length or not hex'] });
  }
  return Buffer.from(hex, 'hex');
}

function formatSignature(result: Awaited<ReturnType<typeof signDigest>>, options: SignDigestOptions): string {
  const signature = result.scheme === 'ECDSA' && options.ecdsaFormat === 'der' ? ecdsaRawToDer(result.signature) : result.signature;
  const base64 = Buffer.from(signature).toString('base64');
  if (!options.json) return `${base64}\n`;
  const { token, certificate, scheme } = result;
  return `${JSON.stringify({ token, certificateId: certificate.id, certificate: certificate.certificate, scheme, hashAlgorithm: HASH_OPTION_VALUES[options.alg], signature: base64 }, null, 2)}\n`;
}

function registerModules(modules: Command): void {
  addSourceOptions(
    modules.command('list').description('modules that will be loaded, and where each comes from').option('--json', 'machine-readable output').addHelpText('after', helpExamples('tokens modules list')),
  ).action(
    async (options: SourceOptions & { json?: boolean }) => {
      const specs = await withStationData(options, (data, config) =>
        resolvePkcs11Modules({
          includeKnown: options.knownModules,
          registry: new Pkcs11ModuleRegistry(data.database),
          modulePaths: [...config.pkcs11Modules, ...options.module],
          nssDatabases: options.nssDb,
        }),
      );
      const rows = specs.map((spec) => ({ name: spec.name, path: spec.path, kind: spec.kind, origin: spec.origin }));
      process.stdout.write(
        options.json ? `${JSON.stringify(rows, null, 2)}\n` : rows.map((r) => `${r.name}\n  ${r.path} (${r.kind}, ${r.origin})\n`).join('') || 'no modules\n',
      );
    },
  );
  addStationOptions(
    modules
      .command('add')
      .description('add a PKCS#11 module (checked by loading it), or an NSS database directory with --nss-database')
      .argument('<path>', 'absolute path of the library (or of the NSS database directory)')
      .option('--nss-database', 'the path is an NSS database directory (cert9.db), not a module')
      .option('--trust-sha256 <hex>', 'load a library outside the standard module directories: its SHA-256, as the refusal names it'),
  )
    .addHelpText('after', helpExamples('tokens modules add /usr/lib/vendor/libpkcs11.so', 'tokens modules add ~/.pki/nssdb --nss-database'))
    .action(async (path: string, options: StationOptionValues & { nssDatabase?: boolean; trustSha256?: string }) => {
      const trusted = options.trustSha256?.toLowerCase();
      const entry = await withStationData(options, (data) =>
        new Pkcs11ModuleRegistry(data.database).add(path, options.nssDatabase ? 'nss-database' : 'module', async (file) => file.sha256 === trusted),
      );
      process.stdout.write(`added ${entry.kind === 'module' ? 'module' : 'NSS database'} ${entry.path}\n`);
    });
  addStationOptions(
    modules.command('remove').description('forget a user-added module or NSS database').argument('<path>').addHelpText('after', helpExamples('tokens modules remove /usr/lib/vendor/libpkcs11.so')),
  ).action(
    async (path: string, options: StationOptionValues) => {
      const removed = await withStationData(options, (data) => new Pkcs11ModuleRegistry(data.database).remove(path));
      if (!removed) throw new InvalidInputError(`${path} is not a user-added module; \`signing-station tokens modules list\` shows them.`);
      process.stdout.write(`removed ${path}\n`);
    },
  );
}

function registerStore(store: Command): void {
  addStationOptions(
    store
      .command('import')
      .description('import the keys and certificates of a PKCS#12 (.p12/.pfx) file; its password is the first line of stdin')
      .argument('<file>')
      .option('--label <label>', 'label to show instead of the file’s friendly name'),
  )
    .addHelpText('after', helpExamples('tokens store import me.p12 < password.txt'))
    .action(async (file: string, options: StationOptionValues & { label?: string }) => {
      const bytes = await readFile(file).catch((cause: NodeJS.ErrnoException) => {
        throw new InvalidInputError(`Cannot read ${file} (${cause.code ?? cause.message}): name a .p12/.pfx file.`, { file: ['unreadable'] });
      });
      const password = await readStdinLine();
      try {
        const stored = await withStationData(options, (data) => new SoftTokenStore(data.database, data.vault).importPkcs12(bytes, password, options.label));
        for (const key of stored) process.stdout.write(`imported ${key.id} ${key.label}\n`);
      } finally {
        password.fill(0);
      }
    });
  addStationOptions(
    store.command('remove').description('delete an imported key and its certificate').argument('<id>', 'key id, as `tokens list` shows it').addHelpText('after', helpExamples('tokens store remove 3f2a…')),
  ).action(
    async (id: string, options: StationOptionValues) => {
      const removed = await withStationData(options, (data) => new SoftTokenStore(data.database, data.vault).remove(id));
      if (!removed) throw new InvalidInputError(`The station's store has no key ${id}.`);
      process.stdout.write(`removed ${id}\n`);
    },
  );
}

function formatListing({ tokens, problems }: TokenListing): string {
  const lines: string[] = [];
  if (tokens.length === 0) lines.push('No tokens found. A USB token that needs its vendor’s module: signing-station tokens modules add PATH');
  for (const token of tokens) {
    const pin = token.pin.locked ? 'PIN locked' : token.pin.finalTry ? 'PIN: final try' : token.pin.countLow ? 'PIN: tries low' : token.pin.pinpad ? 'PIN on pinpad' : 'PIN ok';
    lines.push(`${token.label}  [${token.kind}] ${token.id}`, `  ${token.driver}${token.reader ? ` · ${token.reader}` : ''} · ${pin}`);
    for (const c of token.certificates) {
      lines.push(`  ${c.id}  ${c.usage.padEnd(14)} ${c.keyAlgorithm} ${c.keyParameters}  ${c.valid ? '' : '(not valid now) '}${c.subject}`);
      lines.push(`      issuer ${c.issuer} · serial ${c.serialNumber} · ${c.notBefore.slice(0, 10)} to ${c.notAfter.slice(0, 10)}`);
    }
  }
  for (const problem of problems) lines.push(`! ${problem.source}: ${problem.message}`);
  return `${lines.join('\n')}\n`;
}
