import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { extractZip } from '../support/signing/signing-zip-extract.js';
import { describe, expect, it } from 'vitest';
import type { DocumentVerification } from '../../src/core/schemas/verification-report.js';
import { AsiceEngine } from '../../src/station/signing/asice-engine.js';
import { softKeySigner } from '../../src/station/signing/soft-key-signer.js';
import { signPdf, usePadesFixture } from '../support/signing/signing-pades-fixture.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createTestCa } from '../support/pki/test-pki.js';
import { runCli } from '../support/station/run-cli.js';

const exec = promisify(execFile);
const f = usePadesFixture();
const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64')}\n-----END ${label}-----\n`;

/** `verify --json` with the test root and the reference TSA's root trusted. */
async function verify(file: string, extra: string[] = ['--trust', f.rootPath, '--trust', f.tsa.rootPath]): Promise<{ code: number | null; report: DocumentVerification; stderr: string }> {
  const result = await runCli(['verify', file, '--json', ...extra, '--data-dir', join(f.dir, 'data')]);
  return { code: result.code, report: JSON.parse(result.stdout || '{}') as DocumentVerification, stderr: result.stderr };
}

/** A zip as ASiC wants it: entries in order, the mimetype stored (uncompressed). */
async function writeZip(path: string, entries: Array<[string, Buffer]>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of entries) zip.addBuffer(bytes, name, { compress: name !== 'mimetype' });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
}

describe('signing-station verify', () => {
  it('verifies our PAdES B-T signature: signer, reason, level, integrity, chain, timestamp; one plain line per signature', async () => {
    const signed = join(f.dir, 'ours.pdf');
    await signPdf(f, await writeMinimalPdf(join(f.dir, 'ours-in.pdf')), signed, f.rsa, { reason: 'Approved' });
    const { code, report } = await verify(signed);
    expect(code).toBe(0);
    expect(report).toMatchObject({ format: 'pdf', indication: 'TOTAL-PASSED' });
    expect(report.signatures).toEqual([
      expect.objectContaining({
        kind: 'PAdES',
        signer: expect.stringContaining('CN=Mari Mägi'),
        reason: 'Approved',
        level: 'B-T',
        intact: true,
        coversWholeDocument: true,
        chain: expect.objectContaining({ trusted: true, anchor: expect.stringContaining('Signing Station Test Root') }),
        revocation: 'not embedded',
        timestamp: expect.objectContaining({ valid: true, trusted: true, authority: expect.stringContaining('Reference TSA') }),
        verdict: expect.objectContaining({ indication: 'TOTAL-PASSED', subIndication: null, judgedAtFrom: 'timestamp' }),
      }),
    ]);
    const text = await runCli(['verify', signed, '--trust', f.rootPath, '--trust', f.tsa.rootPath, '--data-dir', join(f.dir, 'data')]);
    expect(text.stdout).toMatch(/^1\. TOTAL-PASSED PAdES B-T signature by .*Mari Mägi.*, timestamped \d{4}-.*reason "Approved".*judged at \d{4}-.* \(timestamp\)/m);
  });

  it('fails a tampered signed PDF as TOTAL-FAILED/HASH_FAILURE, reason first (exit 1), trusted issuer or not', async () => {
    const signed = join(f.dir, 'tampered.pdf');
    await signPdf(f, await writeMinimalPdf(join(f.dir, 'tampered-in.pdf'), 'Pay 100 EUR'), signed, f.rsa, { timestamp: null });
    const bytes = await readFile(signed);
    const at = bytes.indexOf('Pay 100 EUR');
    bytes.write('Pay 900 EUR', at, 'latin1');
    await writeFile(signed, bytes);
    const { code, report } = await verify(signed);
    expect(code).toBe(1);
    expect(report).toMatchObject({ indication: 'TOTAL-FAILED' });
    expect(report.signatures[0]).toMatchObject({ intact: false, level: 'B-B', verdict: expect.objectContaining({ indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE', reason: expect.stringContaining('changed after signing') }) });
    const untrusted = await verify(signed, []);
    expect(untrusted.code).toBe(1);
    expect(untrusted.report.signatures[0]!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE' });
    const text = await runCli(['verify', signed, '--data-dir', join(f.dir, 'data')]);
    expect(text.stdout).toMatch(/^1\. TOTAL-FAILED\/HASH_FAILURE: the signed content was changed after signing/m);
  });

  it('calls an intact signature whose chain ends in no trusted anchor INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND (exit 4), never failed', async () => {
    const signed = join(f.dir, 'untrusted.pdf');
    await signPdf(f, await writeMinimalPdf(join(f.dir, 'untrusted-in.pdf')), signed, f.ec, { timestamp: null });
    const untrusted = await verify(signed, []);
    expect(untrusted.code).toBe(4);
    expect(untrusted.report).toMatchObject({ indication: 'INDETERMINATE' });
    expect(untrusted.report.signatures[0]).toMatchObject({
      intact: true,
      chain: expect.objectContaining({ trusted: false }),
      verdict: expect.objectContaining({ indication: 'INDETERMINATE', subIndication: 'NO_CERTIFICATE_CHAIN_FOUND', judgedAtFrom: 'validation time', advice: expect.stringContaining('trust its issuer') }),
    });
    expect(untrusted.report.signatures[0]!.verdict.reason).toContain('no trusted certificate issued');
    const otherRoot = join(f.dir, 'other-root.pem');
    await writeFile(otherRoot, (await createTestCa('CN=Signing Station Test Root,O=Impostor,C=EE')).pem);
    const wrongAnchor = await verify(signed, ['--trust', otherRoot]);
    expect(wrongAnchor.code).toBe(4);
    expect(wrongAnchor.report.signatures[0]!.chain.trusted).toBe(false);
    const nss = await verify(signed, ['--nss-db', f.nss]);
    expect(nss.code, JSON.stringify(nss.report)).toBe(0);
  });

  it('verifies a signature made by an independent signer (poppler pdfsig -add-signature) next to ours', async () => {
    await writeFile(join(f.dir, 'other-key.pem'), pem('PRIVATE KEY', f.other.pkcs8));
    await writeFile(join(f.dir, 'other-cert.pem'), f.other.pem);
    await exec('openssl', ['pkcs12', '-export', '-in', join(f.dir, 'other-cert.pem'), '-inkey', join(f.dir, 'other-key.pem'), '-name', 'other', '-out', join(f.dir, 'other.p12'), '-passout', 'pass:x']);
    await exec('pk12util', ['-i', join(f.dir, 'other.p12'), '-d', `sql:${f.nss}`, '-W', 'x', '-K', '']);
    const popplerSigned = join(f.dir, 'poppler.pdf');
    await exec('pdfsig', ['-nssdir', `sql:${f.nss}`, '-add-signature', '-nick', 'other', '-reason', 'Poppler', await writeMinimalPdf(join(f.dir, 'poppler-in.pdf')), popplerSigned]);
    const both = join(f.dir, 'poppler-and-ours.pdf');
    await signPdf(f, popplerSigned, both, f.rsa, { reason: 'Station' });
    const { code, report } = await verify(both);
    expect(code, JSON.stringify(report, null, 2)).toBe(0);
    expect(report.signatures.map((s) => [s.signer?.match(/CN=([^,]+)/)?.[1], s.reason, s.verdict.indication, s.coversWholeDocument])).toEqual([
      ['Poppler Signer', 'Poppler', 'TOTAL-PASSED', false],
      ['Mari Mägi', 'Station', 'TOTAL-PASSED', true],
    ]);
  });

  it('verifies an ASiC-E container with XAdES, and refuses one whose data file was swapped', async () => {
    const note = join(f.dir, 'note.txt');
    await writeFile(note, 'the agreed text');
    const container = join(f.dir, 'note.asice');
    const prepared = await AsiceEngine.prepare([{ path: note, name: 'note.txt', mediaType: 'text/plain' }], { certificate: f.ec.der, reason: 'Seen' });
    const value = await softKeySigner(f.ec.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), prepared.digestAlgorithm);
    await AsiceEngine.finish(prepared.state, value, { outputPath: container, timestampClient: f.tsa });
    const { code, report } = await verify(container);
    expect(code, JSON.stringify(report, null, 2)).toBe(0);
    expect(report.signatures).toEqual([expect.objectContaining({ kind: 'XAdES', level: 'B-T', intact: true, verdict: expect.objectContaining({ indication: 'TOTAL-PASSED', subIndication: null }), signer: expect.stringContaining('Jaan Tamm') })]);

    // The same container with the data file's text changed, repacked as an ASiC-E (stored mimetype first).
    const files = await extractZip(container, join(f.dir, 'note-unzipped'));
    const swapped = join(f.dir, 'swapped.asice');
    await writeZip(swapped, await Promise.all(files.map(async (name) => [name, name === 'note.txt' ? Buffer.from('the other text') : await readFile(join(f.dir, 'note-unzipped', name))] as [string, Buffer])));
    const refused = await verify(swapped);
    expect(refused.code).toBe(1);
    expect(refused.report.signatures[0]).toMatchObject({ intact: false, verdict: expect.objectContaining({ indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE' }) });
    expect(refused.report.signatures[0]!.problems.join()).toContain('changed after signing');
  });

  it('verifies a detached CMS (.p7s, openssl cms), the same in an ASiC-S container, and an RFC 3161 timestamp (.tsr), and refuses them for other data', async () => {
    const data = join(f.dir, 'invoice.txt');
    await writeFile(data, 'invoice 42');
    await writeFile(join(f.dir, 'rsa-key.pem'), pem('PRIVATE KEY', f.rsa.pkcs8));
    await writeFile(join(f.dir, 'rsa-cert.pem'), f.rsa.pem);
    await exec('openssl', ['cms', '-sign', '-binary', '-in', data, '-signer', join(f.dir, 'rsa-cert.pem'), '-inkey', join(f.dir, 'rsa-key.pem'), '-outform', 'DER', '-out', `${data}.p7s`]);
    const cms = await verify(`${data}.p7s`);
    expect(cms.code, JSON.stringify(cms.report)).toBe(0);
    expect(cms.report.signatures[0]).toMatchObject({ kind: 'CAdES', level: 'B-B', verdict: expect.objectContaining({ indication: 'TOTAL-PASSED', subIndication: null }), claimedTime: expect.any(String) });

    const asics = join(f.dir, 'invoice.asics');
    await writeZip(asics, [
      ['mimetype', Buffer.from('application/vnd.etsi.asic-s+zip')],
      ['invoice.txt', await readFile(data)],
      ['META-INF/signature.p7s', await readFile(`${data}.p7s`)],
    ]);
    const container = await verify(asics);
    expect(container.code, JSON.stringify(container.report)).toBe(0);
    expect(container.report).toMatchObject({ format: 'asics', signatures: [expect.objectContaining({ kind: 'CAdES', verdict: expect.objectContaining({ indication: 'TOTAL-PASSED', subIndication: null }) })] });

    const tsa = await f.tsa.serveHttp();
    try {
      expect((await runCli(['timestamp', data, '--tsa', tsa.url, '--out', `${data}.tsr`])).code).toBe(0);
    } finally {
      await tsa.close();
    }
    const stamped = await verify(`${data}.tsr`);
    expect(stamped.code, JSON.stringify(stamped.report)).toBe(0);
    expect(stamped.report).toMatchObject({ format: 'timestamp', signatures: [expect.objectContaining({ kind: 'RFC 3161 timestamp', verdict: expect.objectContaining({ indication: 'TOTAL-PASSED', subIndication: null }) })] });

    await writeFile(data, 'invoice 43');
    expect((await verify(`${data}.p7s`)).report.signatures[0]!.problems.join()).toContain('changed after signing');
    const moved = await verify(`${data}.tsr`);
    expect(moved.code).toBe(1);
    expect(moved.report.signatures[0]!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE', reason: expect.stringContaining('message imprint does not match') });
  });

  it('answers a file that is not signed in one sentence', async () => {
    const plain = join(f.dir, 'plain.txt');
    await writeFile(plain, 'hello');
    const result = await runCli(['verify', plain, '--data-dir', join(f.dir, 'data')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not a signed PDF, ASiC container, CMS signature or timestamp.*ERR_VERIFY_UNSUPPORTED/);
    const unsigned = await runCli(['verify', await writeMinimalPdf(join(f.dir, 'unsigned.pdf')), '--data-dir', join(f.dir, 'data')]);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toContain('no signatures');
  });
});
