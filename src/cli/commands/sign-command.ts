import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { Option, type Command } from 'commander';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { readStdinLine } from '../read-stdin.js';
import { readPkcs12, type Pkcs12Entry } from '../../station/pki/pkcs12-reader.js';
import { SignatureEngine, type SignatureFormat } from '../../station/signing/signature-engine.js';
import { SigningError } from '../../station/signing/signing-errors.js';
import type { DocumentSigner } from '../../station/signing/signing-options.js';
import { softKeySigner } from '../../station/signing/soft-key-signer.js';
import { HttpTimestampClient } from '../../station/tsa/http-timestamp-client.js';

export interface SignCommandOptions {
  out: string;
  format?: SignatureFormat;
  pkcs12?: string;
  pinStdin?: boolean;
  reason?: string;
  visible?: boolean;
  tsa?: string;
  timestamp: boolean;
  force?: boolean;
  token?: string;
  cert?: string;
}

/**
 * Finds the signer the options name. The PKCS#11 bridge plugs in here for `--token LABEL --cert ID`; whatever it
 * returns signs hashes through the same HashSigner contract as the PKCS#12 soft key.
 */
export type SignerResolver = (options: SignCommandOptions, readSecret: () => Promise<Buffer>) => Promise<DocumentSigner>;

export const pkcs12SignerResolver: SignerResolver = async (options, readSecret) => {
  if (options.token !== undefined || options.cert !== undefined) {
    throw new InvalidInputError('Signing with --token/--cert needs the PKCS#11 bridge, which is not in this build; use --pkcs12.');
  }
  if (!options.pkcs12) throw new InvalidInputError('Name the signing key: --pkcs12 FILE (with --pin-stdin for its password).');
  const file = new Uint8Array(await readFile(options.pkcs12));
  const password = options.pinStdin ? await readSecret() : Buffer.alloc(0);
  let entries: Pkcs12Entry[];
  try {
    entries = await readPkcs12(file, password);
  } catch (cause) {
    if (cause instanceof InvalidInputError) throw new SigningError('ERR_SIGNING_PKCS12_UNREADABLE', cause.message, { status: 400, cause });
    throw cause;
  } finally {
    password.fill(0);
  }
  const [entry, ...others] = entries;
  for (const other of others) other.pkcs8.fill(0);
  return { certificate: entry!.certificate, chain: entry!.chain, sign: softKeySigner(entry!.pkcs8) };
};

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
export function registerSignCommand(program: Command, resolveSigner: SignerResolver = pkcs12SignerResolver): void {
  program
    .command('sign')
    .description('sign a file: PAdES B-T for PDF, ASiC-E with XAdES B-T for other files and existing containers')
    .argument('<file>', 'document to sign (never modified)')
    .requiredOption('--out <path>', 'where to write the signed document (refused if it exists, unless --force)')
    .addOption(new Option('--format <format>', 'signature format (default: pades for .pdf, else asice)').choices(['pades', 'asice']))
    .option('--pkcs12 <file>', 'PKCS#12 file holding the signing key and certificate')
    .option('--pin-stdin', 'read the PKCS#12 password (or PIN) from the first line of stdin')
    .option('--token <label>', 'PKCS#11 token label (with --cert)')
    .option('--cert <id>', 'certificate id on the token')
    .option('--reason <text>', 'signing reason, recorded in the signature')
    .option('--visible', 'PDF: draw a visible signature (signer, time, reason) on the first page')
    .option('--tsa <url>', 'RFC 3161 timestamp authority URL (B-T level)')
    .option('--no-timestamp', 'sign without a timestamp (B-B level)')
    .option('--force', 'replace an existing --out file (never the input)')
    .action(async (file: string, options: SignCommandOptions) => {
      if (options.timestamp && !options.tsa) throw new InvalidInputError('Give --tsa URL for a timestamped (B-T) signature, or --no-timestamp.');
      if (!options.timestamp && options.tsa) throw new InvalidInputError('--tsa and --no-timestamp exclude each other.');
      const format = options.format ?? (extname(file).toLowerCase() === '.pdf' ? 'pades' : 'asice');
      if (options.visible && format !== 'pades') throw new InvalidInputError('--visible applies to PDF (pades) signatures only.');
      const signer = await resolveSigner(options, readStdinLine);
      const onProgress = progressReporter();
      await SignatureEngine.sign(format, file, signer, {
        outputPath: options.out,
        overwrite: options.force ?? false,
        ...(options.reason !== undefined ? { reason: options.reason } : {}),
        visible: options.visible ?? false,
        ...(options.tsa ? { timestampClient: new HttpTimestampClient({ url: options.tsa }) } : {}),
        onProgress,
      });
      process.stderr.write(`signed: ${options.out}\n`);
    });
}
