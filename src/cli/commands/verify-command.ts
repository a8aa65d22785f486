import type { Command } from 'commander';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import type { DocumentVerification } from '../../core/schemas/verification-report.js';
import { describeSignature } from '../../core/verification/describe-signature.js';
import { writeFileAtomic } from '../../station/files/write-file-atomic.js';
import { loadTrustSource } from '../../station/verification/load-trust-source.js';
import { validationReportXml } from '../../station/verification/validation-report-xml.js';
import { verifyDocument } from '../../station/verification/verify-document.js';
import { ExitCode } from '../failures/exit-code.js';
import { helpExamples } from '../help-examples.js';
import { addStationOptions, type StationOptionValues } from '../station-options.js';
import { withStationData } from '../with-station-data.js';
import { stationTsaCertificates } from './station-tsa-certificates.js';
import { orderVerifyFilePair } from './verify-file-pair.js';

interface VerifyOptions extends StationOptionValues {
  json?: boolean;
  report?: string;
  trust: string[];
  nssDb: string[];
  data?: string;
  offline?: boolean;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

const EXIT_CODE = { 'TOTAL-PASSED': ExitCode.ok, INDETERMINATE: ExitCode.indeterminate, 'TOTAL-FAILED': ExitCode.failed } as const;

/** `signing-station verify FILE`: every signature's ETSI verdict in plain words; the exit code says the worst one. */
export function registerVerifyCommand(program: Command): void {
  addStationOptions(
    program
      .command('verify')
      .description('verify every signature of a PDF, ASiC container, detached CMS (.p7s) or RFC 3161 timestamp (.tsr); exit 0 when all passed, 1 when any failed, 4 when any is indeterminate')
      .argument('<file>', 'the signed file')
      .argument('[other]', 'the other file of a pair, in either order: a .tsr or detached .p7s and the file it covers')
      .option('--json', 'every check in detail, machine-readable')
      .option('--report <file>', 'also write an ETSI TS 119 102-2 style XML validation report to this file')
      .option('--trust <pem>', 'also trust the CA certificates in this PEM file (repeatable)', collect, [])
      .option('--nss-db <dir>', 'also trust the certificates of this NSS database, e.g. a browser profile (repeatable)', collect, [])
      .option('--offline', 'never fetch revocation data (OCSP, CRLs): only what the signatures embed counts (also verifyOffline in the config)')
      .option('--data <file>', 'the signed file of a detached .p7s or a .tsr (default: the name without that extension)')
      .addHelpText(
        'after',
        '\nTrusted by default: the station’s trust list (identity.trustedIssuers in the config) and, for timestamps, its own TSA.' +
          '\nVerdicts (ETSI EN 319 102-1): TOTAL-PASSED, INDETERMINATE (e.g. the issuer is not trusted here), TOTAL-FAILED (e.g. the document was changed).' +
          helpExamples('verify contract.signed.pdf', 'verify contract.asice --trust my-ca.pem --json', 'verify report.pdf report.pdf.tsr', 'verify report.pdf.tsr --data report.pdf', 'verify contract.signed.pdf --report contract-report.xml'),
      ),
  ).action(async (first: string, other: string | undefined, options: VerifyOptions) => {
    if (other !== undefined && options.data !== undefined) throw new InvalidInputError('Give the data file either as the second file or with --data, not both.', { data: ['given twice'] });
    const { signed: file, data: dataFile } = other === undefined ? { signed: first, data: options.data } : await orderVerifyFilePair(first, other);
    const report = await withStationData(options, async (data, config) => {
      const trust = await loadTrustSource(config, await stationTsaCertificates(data), { pemFiles: options.trust, nssDatabases: options.nssDb });
      return verifyDocument(file, { trust, offline: options.offline === true || config.verifyOffline, ...(dataFile !== undefined ? { data: dataFile } : {}) });
    });
    if (options.report) await writeFileAtomic(options.report, validationReportXml(report));
    process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    process.exitCode = report.indication ? EXIT_CODE[report.indication] : ExitCode.failed;
  });
}

function formatReport(report: DocumentVerification): string {
  if (report.signatures.length === 0) return `${report.file}: no signatures\n`;
  const lines = report.signatures.map((signature, index) => `${index + 1}. ${describeSignature(signature)}`);
  const count = report.signatures.length;
  lines.push(
    report.indication === 'TOTAL-PASSED'
      ? `${report.file}: TOTAL-PASSED, all ${count} signatures hold`
      : report.indication === 'TOTAL-FAILED'
        ? `${report.file}: TOTAL-FAILED, a signature does not hold`
        : `${report.file}: INDETERMINATE, validity unknown: no signature failed, but not every one could be confirmed`,
  );
  return `${lines.join('\n')}\n`;
}
