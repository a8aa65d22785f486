import type { Command } from 'commander';
import type { DocumentVerification } from '../../core/schemas/verification-report.js';
import { describeSignature } from '../../core/verification/describe-signature.js';
import { loadTrustAnchors } from '../../station/verification/load-trust-anchors.js';
import { verifyDocument } from '../../station/verification/verify-document.js';
import { ExitCode } from '../failures/exit-code.js';
import { helpExamples } from '../help-examples.js';
import { addStationOptions, type StationOptionValues } from '../station-options.js';
import { withStationData } from '../with-station-data.js';
import { stationTsaCertificates } from './station-tsa-certificates.js';

interface VerifyOptions extends StationOptionValues {
  json?: boolean;
  trust: string[];
  nssDb: string[];
  data?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** `signing-station verify FILE`: every signature in plain words; exit 0 only when each one is valid. */
export function registerVerifyCommand(program: Command): void {
  addStationOptions(
    program
      .command('verify')
      .description('verify every signature of a PDF, ASiC-E container, detached CMS (.p7s) or RFC 3161 timestamp (.tsr); exit 0 only when all are valid')
      .argument('<file>', 'the signed file')
      .option('--json', 'every check in detail, machine-readable')
      .option('--trust <pem>', 'also trust the CA certificates in this PEM file (repeatable)', collect, [])
      .option('--nss-db <dir>', 'also trust the certificates of this NSS database, e.g. a browser profile (repeatable)', collect, [])
      .option('--data <file>', 'the signed file of a detached .p7s or a .tsr (default: the name without that extension)')
      .addHelpText(
        'after',
        '\nTrusted by default: the station’s trust list (identity.trustedIssuers in the config) and its own TSA.' +
          helpExamples('verify contract.signed.pdf', 'verify contract.asice --trust my-ca.pem --json', 'verify report.pdf.tsr --data report.pdf'),
      ),
  ).action(async (file: string, options: VerifyOptions) => {
    const report = await withStationData(options, async (data, config) => {
      const anchors = await loadTrustAnchors(config, await stationTsaCertificates(data), { pemFiles: options.trust, nssDatabases: options.nssDb });
      return verifyDocument(file, { anchors, ...(options.data ? { data: options.data } : {}) });
    });
    process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    process.exitCode = report.valid ? ExitCode.ok : ExitCode.failed;
  });
}

function formatReport(report: DocumentVerification): string {
  if (report.signatures.length === 0) return `${report.file}: no signatures\n`;
  const lines = report.signatures.map((signature, index) => `${index + 1}. ${describeSignature(signature)}`);
  lines.push(report.valid ? `${report.file}: all ${report.signatures.length} valid` : `${report.file}: NOT valid`);
  return `${lines.join('\n')}\n`;
}
