import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { StationError } from '../../core/errors/station-error.js';
import { writeFileAtomic } from '../../station/files/write-file-atomic.js';
import { HttpTimestampClient } from '../../station/tsa/http-timestamp-client.js';
import { HASH_ALGORITHMS, type HashAlgorithm, type HashAlgorithmInfo } from '../../station/pki/hash-algorithms.js';
import { HASH_OPTION_VALUES } from '../hash-option.js';
import { helpExamples } from '../help-examples.js';

interface TimestampOptions {
  tsa: string;
  out: string;
  hash: HashAlgorithmInfo['nodeName'];
  policy?: string;
  certReq: boolean;
  timeout: string;
}

export function registerTimestampCommand(program: Command): void {
  program
    .command('timestamp')
    .description('get an RFC 3161 timestamp for a file from a TSA (the embedded one or any other) and save the reply (.tsr)')
    .argument('<file>', 'file to timestamp')
    .requiredOption('--tsa <url>', 'TSA URL, e.g. http://127.0.0.1:27420/api/timestamp/<client_id>')
    .requiredOption('--out <file>', 'where to write the DER TimeStampResp; never overwritten')
    .addOption(new Option('--hash <algorithm>', 'message imprint algorithm').choices(Object.keys(HASH_OPTION_VALUES)).default('sha256'))
    .option('--policy <oid>', 'request this TSA policy')
    .option('--no-cert-req', 'do not ask the TSA to include its certificate')
    .option('--timeout <ms>', 'give up after this many milliseconds', '15000')
    .addHelpText('after', helpExamples('timestamp report.pdf --tsa http://127.0.0.1:27420/api/timestamp/shop --out report.tsr'))
    .action(async (file: string, options: TimestampOptions) => {
      if (resolve(file) === resolve(options.out)) throw new InvalidInputError('--out must not be the input file.', { out: ['same as the input file'] });
      const timeoutMs = Number(options.timeout);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new InvalidInputError('--timeout must be a positive number of milliseconds.', { timeout: ['not a positive integer'] });
      let client: HttpTimestampClient;
      try {
        client = new HttpTimestampClient({ url: options.tsa, timeoutMs, certReq: options.certReq, ...(options.policy ? { policyOid: options.policy } : {}) });
      } catch (cause) {
        throw new InvalidInputError(`--tsa is not a usable URL: ${(cause as Error).message}`, { tsa: ['not an http(s) URL'] });
      }
      const algorithm = HASH_OPTION_VALUES[options.hash];
      const hash = await hashFile(file, algorithm);
      const { response, tstInfo } = await client.exchange(hash, algorithm);
      try {
        await writeFileAtomic(options.out, response, { exclusive: true });
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new StationError('ERR_OUTPUT_EXISTS', `${options.out} already exists; it is never overwritten. Choose another --out.`, { status: 409, cause });
        }
        throw new StationError('ERR_OUTPUT_UNWRITABLE', `Cannot write ${options.out}: ${(cause as Error).message}`, { cause });
      }
      const serial = Buffer.from(tstInfo.serialNumber).toString('hex');
      process.stdout.write(`timestamp saved to ${options.out}: ${algorithm} imprint and nonce checked, serial 0x${serial}, time ${tstInfo.genTime.toISOString()}\n`);
    });
}

async function hashFile(path: string, algorithm: HashAlgorithm): Promise<Buffer> {
  const hash = createHash(HASH_ALGORITHMS[algorithm].nodeName);
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a folder' : `cannot be read (${code ?? (cause as Error).message})`;
    throw new InvalidInputError(`${path} ${why}: name the file to timestamp.`, { file: [why] });
  }
  return hash.digest();
}
