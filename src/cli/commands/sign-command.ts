import { extname } from 'node:path';
import { Option, type Command } from 'commander';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { signatureBaselineSchema } from '../../core/schemas/signature-baseline.js';
import { SignatureEngine } from '../../station/signing/signature-engine.js';
import { HttpTimestampClient } from '../../station/tsa/http-timestamp-client.js';
import { readStdinLine } from '../read-stdin.js';
import { addStationOptions } from '../station-options.js';
import { pkcs12SignerResolver } from './pkcs12-signer-resolver.js';
import type { SignCommandOptions, SignerResolver } from './signer-resolver.js';
import { tokenSignerResolver } from './token-signer-resolver.js';
import { addTokenSourceOptions } from './tokens-sources.js';

/** `--token/--cert` sign with a key on one of the station's tokens, anything else with a `--pkcs12` file. */
export const defaultSignerResolver: SignerResolver = (options, readSecret) =>
  options.token !== undefined || options.cert !== undefined ? tokenSignerResolver(options, readSecret) : pkcs12SignerResolver(options, readSecret);

function progressReporter(): (done: number, total: number) => void {
  let last = -1;
  return (done, total) => {
    if (total < 16 * 1024 * 1024) return;
    const percent = Math.floor((done / total) * 100);
    if (percent === last) return;
    last = percent;
    process.stderr.write(process.stderr.isTTY ? `\rsigning: ${percent}%` : percent % 10 === 0 ? `signing: ${percent}%\n` : '');
    if (percent === 100 && process.stderr.isTTY) process.stderr.write('\n');
  };
}

/** `signing-station sign FILE --out OUT ...`: PAdES for PDFs, ASiC-E for anything else (or an ASiC-E to co-sign). */
export function registerSignCommand(program: Command, resolveSigner: SignerResolver = defaultSignerResolver): void {
  const command = program
    .command('sign')
    .description('sign a file: PAdES B-T for PDF, ASiC-E with XAdES B-T for other files and existing containers')
    .argument('<file>', 'document to sign (never modified)')
    .requiredOption('--out <path>', 'where to write the signed document (refused if it exists, unless --force)')
    .addOption(new Option('--format <format>', 'signature format (default: pades for .pdf, else asice)').choices(['pades', 'asice']))
    .option('--pkcs12 <file>', 'PKCS#12 file holding the signing key and certificate')
    .option('--pin-stdin', 'read the PKCS#12 password or the token PIN from the first line of stdin')
    .option('--token <label-or-id>', 'token label (when unique) or id, as `tokens list` shows (with --cert)')
    .option('--cert <id>', 'certificate id on the token, as `tokens list` shows')
    .option('--reason <text>', 'signing reason, recorded in the signature')
    .option('--visible', 'PDF: draw a visible signature (signer, time, reason) on the first page')
    .option('--tsa <url>', 'RFC 3161 timestamp authority URL (B-T level)')
    .option('--no-timestamp', 'sign without a timestamp (B-B level)')
    .addOption(new Option('--baseline <level>', 'ETSI baseline: B-B, B-T (default), B-LT (+ certificates and OCSP/CRL data), B-LTA (+ a timestamp over them)').choices(signatureBaselineSchema.options))
    .option('--force', 'replace an existing --out file (never the input)');
  addTokenSourceOptions(addStationOptions(command)).action(async (file: string, options: SignCommandOptions) => {
    const baseline = options.baseline ?? (options.timestamp ? 'B-T' : 'B-B');
    if (!options.timestamp && baseline !== 'B-B') throw new InvalidInputError(`--no-timestamp is the B-B level; --baseline ${baseline} needs a timestamp.`);
    if (baseline !== 'B-B' && !options.tsa) throw new InvalidInputError(`Give --tsa URL for a timestamped (${baseline}) signature, or --no-timestamp.`);
    if (!options.timestamp && options.tsa) throw new InvalidInputError('--tsa and --no-timestamp exclude each other.');
    const format = options.format ?? (extname(file).toLowerCase() === '.pdf' ? 'pades' : 'asice');
    if (options.visible && format !== 'pades') throw new InvalidInputError('--visible applies to PDF (pades) signatures only.');
    const timestampClient = options.tsa ? new HttpTimestampClient({ url: options.tsa }) : undefined;
    const signer = await resolveSigner(options, readStdinLine);
    try {
      await SignatureEngine.sign(format, file, signer, {
        outputPath: options.out,
        overwrite: options.force ?? false,
        ...(options.reason !== undefined ? { reason: options.reason } : {}),
        visible: options.visible ?? false,
        ...(timestampClient ? { timestampClient } : {}),
        baseline,
        onProgress: progressReporter(),
      });
    } finally {
      await signer.release();
    }
    process.stderr.write(`signed: ${options.out}\n`);
  });
}
