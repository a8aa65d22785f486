import { stat } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import { Option, type Command } from 'commander';
import { signatureBaselineSchema } from '../../core/schemas/signature-baseline.js';
import { stampLanguageSchema } from '../../core/schemas/stamp-language.js';
import { recordSignatureAttempt } from '../../station/audit/record-signature-attempt.js';
import { summarizeCertificate } from '../../station/pki/certificate-summary.js';
import { SignatureEngine, type SignatureFormat } from '../../station/signing/signature-engine.js';
import { sha256OfFile } from '../../station/tokens/pkcs11/sha256-of-file.js';
import { removeStaleStagingFiles } from '../../station/files/remove-stale-staging-files.js';
import { explainOutputFailure } from '../../station/files/explain-output-failure.js';
import type { StationData } from '../../station/open-station-data.js';
import { ProgressReporter } from '../progress/progress-reporter.js';
import { readStdinLine } from '../read-stdin.js';
import { addStationOptions } from '../station-options.js';
import { withStationData } from '../with-station-data.js';
import { helpExamples } from '../help-examples.js';
import { pkcs12SignerResolver } from './pkcs12-signer-resolver.js';
import { checkSignArguments, defaultOutputPath } from './sign-arguments.js';
import { openSignTimestamping } from './sign-timestamp-client.js';
import type { ResolvedSigner, SignCommandOptions, SignerContext, SignerResolver } from './signer-resolver.js';
import { tokenSignerResolver } from './token-signer-resolver.js';
import { addTokenSourceOptions } from './tokens-sources.js';
import { visiblePlacementOptions } from './visible-placement-options.js';

/** What a signed file adds to its input at most, about: the signature, its certificates and revocation data. */
const OUTPUT_MARGIN_BYTES = 1024 * 1024;

/** `--token/--cert` sign with a key on one of the station's tokens, anything else with a `--pkcs12` file. */
export const defaultSignerResolver: SignerResolver = (options, context) =>
  options.token !== undefined || options.cert !== undefined ? tokenSignerResolver(options, context) : pkcs12SignerResolver(options, context);

const EXAMPLES = `
Requires the document and a key: --token LABEL (a USB token, ID card or imported key; \`signing-station tokens list\`
shows them) or --pkcs12 FILE. The PIN is asked on the terminal, or read from the first line of stdin with --pin-stdin.
Timestamped by the station's own TSA unless --tsa URL names another or --no-timestamp asks for none (B-B);
--baseline B-LT adds the certificates and OCSP/CRL data, B-LTA a timestamp over them.

${helpExamples(
  'sign contract.pdf --token "My Token"                  # writes contract.signed.pdf',
  'sign report.docx --token "My Token" --reason Approved  # writes report.asice',
  'sign a.pdf --token T --visible --page 2 --rect 36,36,316,120  # a visible box on page 2',
  'sign a.pdf --token T --visible --stamp-language et    # the box’s labels in Estonian',
  'sign a.pdf --token T --cert 0a --pin-stdin --out signed/a.pdf < pin.txt',
  'sign a.pdf --pkcs12 me.p12 --pin-stdin --tsa https://tsa.example/tsr < password.txt',
)}`;

/** `signing-station sign FILE --token T`: PAdES for PDFs, ASiC-E for anything else (or an ASiC-E to co-sign). */
export function registerSignCommand(program: Command, resolveSigner: SignerResolver = defaultSignerResolver): void {
  const placement = visiblePlacementOptions();
  const command = program
    .command('sign')
    .description('sign a file: PAdES B-T for PDF, ASiC-E with XAdES B-T for other files and existing containers')
    .argument('<file>', 'document to sign (never modified)')
    .option('--out <path>', 'where to write the signed document (default: beside the input, name.signed.pdf or name.asice; never an existing file)')
    .addOption(new Option('--format <format>', 'signature format (default: pades for .pdf, else asice)').choices(['pades', 'asice']))
    .option('--token <label-or-id>', 'token label (when unique) or id, as `tokens list` shows')
    .option('--cert <id>', 'certificate id on the token (needed only when it holds several signing certificates)')
    .option('--pkcs12 <file>', 'PKCS#12 file holding the signing key and certificate')
    .option('--pin-stdin', 'read the token PIN or PKCS#12 password from the first line of stdin instead of asking')
    .option('--reason <text>', 'signing reason, recorded in the signature')
    .option('--visible', 'PDF: draw a visible signature (signer, time, reason), by default where the first page has free space')
    .option('--tsa <url>', 'timestamp with this RFC 3161 TSA instead of the station’s own')
    .option('--no-timestamp', 'sign without a timestamp (B-B level)')
    .addOption(placement.page)
    .addOption(placement.rect)
    .addOption(new Option('--stamp-language <code>', 'PDF: the language of the visible signature’s labels (default: en)').choices(stampLanguageSchema.options))
    .addOption(new Option('--baseline <level>', 'ETSI baseline: B-B, B-T (default), B-LT (+ certificates and OCSP/CRL data), B-LTA (+ a timestamp over them)').choices(signatureBaselineSchema.options))
    .option('--force', 'replace an existing --out file (never the input)')
    .addHelpText('after', EXAMPLES);
  addTokenSourceOptions(addStationOptions(command)).action(async (file: string, options: SignCommandOptions) => {
    const format = options.format ?? (extname(file).toLowerCase() === '.pdf' ? 'pades' : 'asice');
    await checkSignArguments(file, options, format);
    // Before any token is opened or PIN asked: a document that cannot be signed is refused first.
    await SignatureEngine.inspect(format, file, options.page === undefined ? {} : { page: options.page });
    const numbered = options.out === undefined;
    const out = options.out ?? defaultOutputPath(file, format);
    await removeStaleStagingFiles(dirname(out));
    const progress = new ProgressReporter();
    let written: string;
    try {
      written = await withStationData(options, async (data, config) => {
        const signer = await resolveSigner(options, { data, config, readSecret: readStdinLine, progress });
        try {
          return await signAudited({ file, out, numbered, format, options, signer }, { data, progress });
        } finally {
          await signer.release();
        }
      });
    } finally {
      progress.end();
    }
    process.stderr.write(`signed: ${written}\n`);
  });
}

interface SignRun {
  file: string;
  out: string;
  /** `out` is the first choice of a default name: a numbered variant is taken when it is taken (numberWhenTaken). */
  numbered: boolean;
  format: SignatureFormat;
  options: SignCommandOptions;
  signer: ResolvedSigner;
}

/** Signs, timestamps and writes, with the attempt and its outcome in the station's audit log; gives the path written. */
async function signAudited(run: SignRun, { data, progress }: Pick<SignerContext, 'data' | 'progress'>): Promise<string> {
  const attempt = {
    clientId: null,
    method: run.signer.method,
    signer: summarizeCertificate(run.signer.certificate, 'signer', new Date()).subject,
    documentName: basename(run.file),
    documentDigest: (await sha256OfFile(run.file)).sha256,
    source: 'cli' as const,
    requester: null,
  };
  return recordSignatureAttempt(data.audit, attempt, () => signWithProgress(run, data, progress), (written) => `written to ${written}`);
}

async function signWithProgress({ file, out, numbered, format, options, signer }: SignRun, data: StationData, progress: ProgressReporter): Promise<string> {
  const timestamping = await openSignTimestamping({ ...options, timestamp: baselineOf(options) !== 'B-B' }, data, progress);
  let signed = false;
  const reportingSigner = {
    ...signer,
    sign: (hash: Uint8Array, algorithm: Parameters<ResolvedSigner['sign']>[1], mandated?: Parameters<ResolvedSigner['sign']>[2]) => {
      progress.step('signing');
      return signer.sign(hash, algorithm, mandated).finally(() => (signed = true));
    },
  };
  try {
    progress.step('hashing');
    return await SignatureEngine.sign(format, file, reportingSigner, {
      outputPath: out,
      // --force is about an explicit --out: a default name is never written over.
      overwrite: !numbered && (options.force ?? false),
      numberWhenTaken: numbered,
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
      visible: options.visible ?? false,
      ...(options.page !== undefined ? { page: options.page } : {}),
      ...(options.rect !== undefined ? { rect: options.rect } : {}),
      ...(options.stampLanguage !== undefined ? { stampLanguage: options.stampLanguage } : {}),
      ...(timestamping.client ? { timestampClient: timestamping.client } : {}),
      baseline: baselineOf(options),
      onProgress: (done, total) => progress.step(signed ? 'writing' : 'hashing', done, total),
    });
  } catch (error) {
    throw await explainOutputFailure(error, out, (await stat(file)).size + OUTPUT_MARGIN_BYTES);
  } finally {
    await timestamping.close();
  }
}

/** `--baseline`, or what `--no-timestamp` means (B-B); checked against each other in checkSignArguments. */
function baselineOf(options: SignCommandOptions): NonNullable<SignCommandOptions['baseline']> {
  return options.baseline ?? (options.timestamp ? 'B-T' : 'B-B');
}
