import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DOMParser } from '@xmldom/xmldom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DocumentVerification } from '../../src/core/schemas/verification-report.js';
import { documentVerificationSchema } from '../../src/core/schemas/verification-report.js';
import { usePadesFixture } from '../support/signing/signing-pades-fixture.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';
import { runCli } from '../support/station/run-cli.js';

const f = usePadesFixture();
const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64')}\n-----END ${label}-----\n`;
const VR = 'http://uri.etsi.org/19102/v1.2.1#';

/** `verify --json` against the station whose data directory is `station` (its own TSA is trusted there). */
async function verify(file: string, station: string, extra: string[] = []): Promise<{ code: number | null; report: DocumentVerification }> {
  const result = await runCli(['verify', file, '--json', ...extra, '--data-dir', join(f.dir, station)]);
  return { code: result.code, report: documentVerificationSchema.parse(JSON.parse(result.stdout)) };
}

describe('verify: ETSI verdicts of the station’s own signatures, and the XML report', () => {
  let signed: string;

  beforeAll(async () => {
    await writeFile(join(f.dir, 'key.pem'), pem('PRIVATE KEY', f.rsa.pkcs8));
    await writeFile(join(f.dir, 'cert.pem'), f.rsa.pem);
    const p12 = join(f.dir, 'signer.p12');
    await promisify(execFile)('openssl', ['pkcs12', '-export', '-in', join(f.dir, 'cert.pem'), '-inkey', join(f.dir, 'key.pem'), '-certfile', f.rootPath, '-out', p12, '-passout', 'pass:pw']);
    signed = join(f.dir, 'station-signed.pdf');
    const sign = await runCli(['sign', await writeMinimalPdf(join(f.dir, 'in.pdf')), '--out', signed, '--pkcs12', p12, '--pin-stdin', '--data-dir', join(f.dir, 'here')], { stdin: 'pw\n' });
    expect(sign.code, sign.stderr).toBe(0);
  });

  it('passes on the machine that made it when its CA is trusted, judged at the time its own TSA proves', async () => {
    const { code, report } = await verify(signed, 'here', ['--trust', f.rootPath]);
    expect(code).toBe(0);
    expect(report.signatures[0]!.verdict).toMatchObject({ indication: 'TOTAL-PASSED', judgedAtFrom: 'timestamp', judgedAt: report.signatures[0]!.timestamp!.time });
    expect(report.signatures[0]!.timestamp!.verdict.indication).toBe('TOTAL-PASSED');
  });

  it('is INDETERMINATE (exit 4), not failed, when its CA is not trusted', async () => {
    const { code, report } = await verify(signed, 'here');
    expect(code).toBe(4);
    expect(report.signatures[0]).toMatchObject({ intact: true, verdict: expect.objectContaining({ indication: 'INDETERMINATE', subIndication: 'NO_CERTIFICATE_CHAIN_FOUND' }) });
  });

  it('on another station, its timestamp is INDETERMINATE "by another Signing Station", and so is the signature', async () => {
    const { code, report } = await verify(signed, 'elsewhere', ['--trust', f.rootPath]);
    expect(code).toBe(4);
    const [signature] = report.signatures;
    expect(signature!.timestamp!.verdict).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'NO_CERTIFICATE_CHAIN_FOUND', reason: 'timestamp by another Signing Station; trust its certificate to accept it' });
    expect(signature!.verdict).toMatchObject({ indication: 'INDETERMINATE', judgedAtFrom: 'validation time', reason: expect.stringContaining('timestamp by another Signing Station; trust its certificate to accept it') });
  });

  it('writes a well-formed ETSI TS 119 102-2 style report with the same indications (--report)', async () => {
    const out = join(f.dir, 'report.xml');
    const result = await runCli(['verify', signed, '--report', out, '--data-dir', join(f.dir, 'here')]);
    expect(result.code).toBe(4);
    const errors: string[] = [];
    const doc = new DOMParser({ onError: (level, message) => void errors.push(`${level}: ${message}`) }).parseFromString(await readFile(out, 'utf8'), 'application/xml');
    expect(errors).toEqual([]);
    expect(doc.documentElement?.localName).toBe('ValidationReport');
    const texts = (name: string): string[] => [...doc.getElementsByTagNameNS(VR, name)].map((e) => e.textContent ?? '');
    expect(texts('MainIndication')).toEqual(['urn:etsi:019102:mainindication:indeterminate']);
    expect(texts('SubIndication')).toEqual(['urn:etsi:019102:subindication:NO_CERTIFICATE_CHAIN_FOUND']);
    expect(texts('Signer')[0]).toContain('Mari Mägi');
  });
});
