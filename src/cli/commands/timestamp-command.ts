import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { StationError } from '../../core/errors/station-error.js';
import { writeFileAtomic } from '../../station/files/write-file-atomic.js';
import type { StationData } from '../../station/open-station-data.js';
import { systemClock } from '../../station/ports/clock.js';
import { HttpTimestampClient } from '../../station/tsa/http-timestamp-client.js';
import { TimestampAuthority } from '../../station/tsa/timestamp-authority.js';
import { exchangeTimestamp, type TimestampExchange, type TimestampExchangeOptions } from '../../station/tsa/timestamp-exchange.js';
import { HASH_ALGORITHMS, type HashAlgorithm, type HashAlgorithmInfo } from '../../station/pki/hash-algorithms.js';
import { HASH_OPTION_VALUES } from '../hash-option.js';
import { helpExamples } from '../help-examples.js';
import { addStationOptions, type StationOptionValues } from '../station-options.js';
import { withStationData } from '../with-station-data.js';

interface TimestampOptions extends StationOptionValues {
  tsaUrl?: string;
  tsa?: string;
  out?: string;
  hash: HashAlgorithmInfo['nodeName'];
  policy?: string;
  certReq: boolean;
  timeout: string;
}

/**
 * `signing-station timestamp FILE`: an RFC 3161 timestamp of a file, like `sign` works alone: the station's own TSA
 * in this process (no server, no client to register), or a remote one with --tsa-url; the reply goes beside the
 * file as FILE.tsr (FILE (2).tsr when taken), written atomically and never over an existing file.
 */
export function registerTimestampCommand(program: Command): void {
  addStationOptions(
    program
      .command('timestamp')
      .description('get an RFC 3161 timestamp for a file from the station’s own TSA (or another) and save the reply beside it (FILE.tsr)')
      .argument('<file>', 'file to timestamp')
      .option('--out <file>', 'where to write the DER TimeStampResp (default: FILE.tsr beside the file, numbered when taken); never overwritten')
      .option('--tsa-url <url>', 'a remote TSA’s RFC 3161 URL (default: the station’s own TSA, in this process)')
      .addOption(new Option('--tsa <url>', 'the same as --tsa-url').hideHelp())
      .addOption(new Option('--hash <algorithm>', 'message imprint algorithm').choices(Object.keys(HASH_OPTION_VALUES)).default('sha256'))
      .option('--policy <oid>', 'request this TSA policy')
      .option('--no-cert-req', 'do not ask the TSA to include its certificate')
      .option('--timeout <ms>', 'with --tsa-url: give up after this many milliseconds', '15000')
      .addHelpText(
        'after',
        '\nCheck it with `signing-station verify FILE FILE.tsr` (either order). On another station the station’s own TSA is unknown until that station trusts its certificate (`signing-station tsa chain`).' +
          helpExamples('timestamp report.pdf', 'timestamp report.pdf --out stamps/report.tsr', 'timestamp report.pdf --tsa-url https://tsa.example/tsr'),
      ),
  ).action(async (file: string, options: TimestampOptions) => {
    const url = options.tsaUrl ?? options.tsa;
    if (options.tsaUrl && options.tsa && options.tsaUrl !== options.tsa) throw new InvalidInputError('--tsa is --tsa-url: give one.', { tsa: ['given twice'] });
    if (options.out !== undefined && resolve(file) === resolve(options.out)) throw new InvalidInputError('--out must not be the input file.', { out: ['same as the input file'] });
    const timeoutMs = Number(options.timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new InvalidInputError('--timeout must be a positive number of milliseconds.', { timeout: ['not a positive integer'] });
    const exchangeOptions: TimestampExchangeOptions = { certReq: options.certReq, ...(options.policy ? { policyOid: options.policy } : {}) };
    const remote = url ? httpClient(url, timeoutMs, exchangeOptions) : undefined;
    const algorithm = HASH_OPTION_VALUES[options.hash];
    const hash = await hashFile(file, algorithm);
    // Checked before the TSA is asked, so no serial number is spent on a doomed write; the final link(2) closes the race.
    if (options.out !== undefined && (await stat(options.out).catch(() => undefined))) throw outputExists(options.out);
    const { response, tstInfo } = remote ? await remote.exchange(hash, algorithm) : await withStationData(options, (data) => ownTimestamp(data, hash, algorithm, exchangeOptions));
    const out = await publish(options.out ?? `${file}.tsr`, response, options.out === undefined);
    const serial = Buffer.from(tstInfo.serialNumber).toString('hex');
    process.stdout.write(`timestamp saved to ${out}: ${algorithm} imprint and nonce checked, serial 0x${serial}, time ${tstInfo.genTime.toISOString()}\n`);
  });
}

function httpClient(url: string, timeoutMs: number, options: TimestampExchangeOptions): HttpTimestampClient {
  try {
    return new HttpTimestampClient({ url, timeoutMs, ...options });
  } catch (cause) {
    throw new InvalidInputError(`--tsa-url is not a usable URL: ${(cause as Error).message}`, { tsaUrl: ['not an http(s) URL'] });
  }
}

/** The station's own TSA in this process: the same authority, key and serial numbers as `serve`'s. */
async function ownTimestamp(data: StationData, hash: Uint8Array, algorithm: HashAlgorithm, options: TimestampExchangeOptions): Promise<TimestampExchange> {
  const authority = await TimestampAuthority.open({ database: data.database, vault: data.vault, clock: systemClock });
  try {
    return await exchangeTimestamp((request) => authority.respond(request), hash, algorithm, options);
  } finally {
    await authority.close();
  }
}

/**
 * Atomically, never over another file: the default name takes the first free `FILE (2).tsr`, ... when taken (claimed
 * by link(2) once written, so a killed run leaves no empty placeholder); a given --out must not exist.
 */
async function publish(out: string, response: Uint8Array, numberWhenTaken: boolean): Promise<string> {
  try {
    return await writeFileAtomic(out, response, { exclusive: true, numberWhenTaken });
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') throw outputExists(out, cause);
    throw new StationError('ERR_OUTPUT_UNWRITABLE', `Cannot write ${out}: ${(cause as Error).message}`, { cause });
  }
}

const outputExists = (out: string, cause?: unknown): StationError =>
  new StationError('ERR_OUTPUT_EXISTS', `${out} already exists; it is never overwritten. Choose another --out.`, { status: 409, ...(cause ? { cause } : {}) });

async function hashFile(path: string, algorithm: HashAlgorithm): Promise<Buffer> {
  const why = await stat(path).then(
    (found) => (found.isFile() ? undefined : 'is a folder'),
    (cause: NodeJS.ErrnoException) => (cause.code === 'ENOENT' ? 'does not exist' : `cannot be read (${cause.code ?? cause.message})`),
  );
  if (why) throw new InvalidInputError(`${path} ${why}: name the file to timestamp.`, { file: [why] });
  const hash = createHash(HASH_ALGORITHMS[algorithm].nodeName);
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest();
}
