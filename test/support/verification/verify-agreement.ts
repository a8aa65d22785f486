// Runs `signing-station verify --json` over every file of a folder and compares each document's verdict with the
// class a reference validator's tests give it (test/verification/dss-expected-verdicts.json).
//   bash scripts/test-env.sh npx tsx test/support/verification/verify-agreement.ts FOLDER [EXPECTED.json]
// prints one row per file (file, our indication/sub-indication, expected class, agree) and "agreement: N of M".
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentVerificationSchema } from '../../../src/core/schemas/verification-report.js';
import { runCli } from '../station/run-cli.js';

export interface ExpectedVerdict {
  indication: string;
  subIndication?: string;
  /** A second indication the reference's test accepts. */
  orIndication?: string;
  note?: string;
}

export interface AgreementRow {
  file: string;
  /** INDICATION[/SUB] of the worst signature, "no signatures", or ERROR <code> when verify refused the file. */
  ours: string;
  expected: string;
  agrees: boolean;
  crashed: boolean;
}

const DEFAULT_EXPECTED = fileURLToPath(new URL('../../verification/dss-expected-verdicts.json', import.meta.url));

/** Verifies every file of `folder` with no trust configured and compares with `expectedPath`'s classes. */
export async function verifyAgreement(folder: string, expectedPath = DEFAULT_EXPECTED): Promise<AgreementRow[]> {
  const expected = (JSON.parse(await readFile(expectedPath, 'utf8')) as { documents: Record<string, ExpectedVerdict> }).documents;
  const dataDir = await mkdtemp(join(tmpdir(), 'verify-agreement-'));
  try {
    const rows: AgreementRow[] = [];
    for (const file of (await readdir(folder)).sort()) {
      const want = expected[file];
      if (!want) continue;
      const result = await runCli(['verify', join(folder, file), '--json', '--data-dir', dataDir]);
      rows.push(compare(file, want, result.stdout, result.stderr));
    }
    return rows;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

function compare(file: string, want: ExpectedVerdict, stdout: string, stderr: string): AgreementRow {
  const expected = `${want.indication}${want.subIndication ? `/${want.subIndication}` : ''}${want.orIndication ? ` or ${want.orIndication}` : ''}`;
  const parsed = stdout.trim() ? documentVerificationSchema.safeParse(JSON.parse(stdout)) : undefined;
  if (!parsed?.success) {
    const code = /ERR_[A-Z_]+/.exec(stderr)?.[0] ?? 'unknown';
    return { file, ours: `ERROR ${code}`, expected, agrees: false, crashed: code === 'ERR_INTERNAL' || code === 'unknown' };
  }
  const report = parsed.data;
  const deciding = report.signatures.find((s) => s.verdict.indication === report.indication);
  const ours = report.indication ? `${report.indication}${deciding?.verdict.subIndication ? `/${deciding.verdict.subIndication}` : ''}` : 'no signatures';
  const indicationAgrees = report.indication === want.indication || report.indication === want.orIndication;
  const subAgrees = !want.subIndication || report.indication !== want.indication || report.signatures.some((s) => s.verdict.subIndication === want.subIndication);
  return { file, ours, expected, agrees: indicationAgrees && subAgrees, crashed: false };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [folder, expectedPath] = process.argv.slice(2);
  if (!folder) {
    console.error('usage: bash scripts/test-env.sh npx tsx test/support/verification/verify-agreement.ts FOLDER [EXPECTED.json]');
    process.exit(2);
  }
  const rows = await verifyAgreement(folder, expectedPath);
  const width = Math.max(...rows.map((r) => r.file.length));
  for (const row of rows) console.log(`${row.agrees ? ' ' : '✗'} ${row.file.padEnd(width)}  ${row.ours.padEnd(48)}  ${row.expected}`);
  console.log(`agreement: ${rows.filter((r) => r.agrees).length} of ${rows.length}; crashes: ${rows.filter((r) => r.crashed).length}`);
}
