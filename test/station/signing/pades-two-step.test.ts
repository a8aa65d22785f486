import { copyFile, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PadesEngine } from '../../../src/station/signing/pades-engine.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';
import { DocumentChangedError, OutputExistsError, SignatureValueInvalidError, TimestampFailedError, UnsupportedDocumentError } from '../../../src/station/signing/signing-errors.js';
import type { TimestampClient } from '../../../src/station/tsa/timestamp-client.js';
import { expectAllValid as expectAllValidIn, signPdf, usePadesFixture, type TestSigner } from '../../support/signing/signing-pades-fixture.js';
import { writeMinimalPdf } from '../../support/signing/signing-test-pdfs.js';

const f = usePadesFixture();
const sign = (input: string, output: string, signer: TestSigner, options?: Parameters<typeof signPdf>[4]) => signPdf(f, input, output, signer, options);
const expectAllValid = (file: string, count: number, timestamped = true) => expectAllValidIn(f, file, count, timestamped);

describe('PAdES two-step safety', () => {
  it('rejects a signature value that is not over the prepared data', async () => {
    const input = await writeMinimalPdf(join(f.dir, 'wrong-sig.pdf'));
    const prepared = await PadesEngine.prepare(input, { certificate: f.rsa.der });
    const otherData = await softKeySigner(f.rsa.pkcs8)(new Uint8Array(32), 'SHA-256');
    await expect(PadesEngine.finish(prepared.state, otherData, { outputPath: join(f.dir, 'wrong-sig-out.pdf') })).rejects.toBeInstanceOf(SignatureValueInvalidError);
    const wrongKey = await softKeySigner(f.ec.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await expect(PadesEngine.finish(prepared.state, wrongKey, { outputPath: join(f.dir, 'wrong-sig-out.pdf') })).rejects.toBeInstanceOf(SignatureValueInvalidError);
    await expect(stat(join(f.dir, 'wrong-sig-out.pdf'))).rejects.toThrow();
  });

  it('accepts an ECDSA signature value in DER, as openssl pkeyutl makes it over the prepared hash', async () => {
    const input = await writeMinimalPdf(join(f.dir, 'der-ecdsa.pdf'));
    const prepared = await PadesEngine.prepare(input, { certificate: f.ec.der, reason: 'DER' });
    await writeFile(join(f.dir, 'ec-key.pem'), `-----BEGIN PRIVATE KEY-----\n${Buffer.from(f.ec.pkcs8).toString('base64')}\n-----END PRIVATE KEY-----\n`);
    await writeFile(join(f.dir, 'der-ecdsa.hash'), Buffer.from(prepared.dataToSignDigest, 'hex'));
    await promisify(execFile)('openssl', ['pkeyutl', '-sign', '-inkey', join(f.dir, 'ec-key.pem'), '-in', join(f.dir, 'der-ecdsa.hash'), '-out', join(f.dir, 'der-ecdsa.sig')]);
    const der = new Uint8Array(await readFile(join(f.dir, 'der-ecdsa.sig')));
    expect(der[0]).toBe(0x30);
    await PadesEngine.finish(prepared.state, der, { outputPath: join(f.dir, 'der-ecdsa-signed.pdf'), timestampClient: f.tsa });
    await expectAllValid(join(f.dir, 'der-ecdsa-signed.pdf'), 1);
  });

  it('refuses a timestamp token that covers something else, and writes nothing', async () => {
    const input = await writeMinimalPdf(join(f.dir, 'foreign-token.pdf'));
    const prepared = await PadesEngine.prepare(input, { certificate: f.rsa.der });
    const signature = await softKeySigner(f.rsa.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    const confused: TimestampClient = { timestamp: (_hash, algorithm) => f.tsa.timestamp(new Uint8Array(32).fill(7), algorithm) };
    await expect(PadesEngine.finish(prepared.state, signature, { outputPath: join(f.dir, 'foreign-token-out.pdf'), timestampClient: confused })).rejects.toBeInstanceOf(TimestampFailedError);
    await expect(stat(join(f.dir, 'foreign-token-out.pdf'))).rejects.toThrow();
  });

  it('refuses to finish when the document changed after prepare, leaving no output or temp file', async () => {
    const input = await writeMinimalPdf(join(f.dir, 'changing.pdf'));
    const prepared = await PadesEngine.prepare(input, { certificate: f.rsa.der });
    const signature = await softKeySigner(f.rsa.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await writeMinimalPdf(input, 'Something else entirely');
    const out = join(f.dir, 'changing-out.pdf');
    await expect(PadesEngine.finish(prepared.state, signature, { outputPath: out })).rejects.toBeInstanceOf(DocumentChangedError);
    await expect(stat(out)).rejects.toThrow();
    expect((await readdir(f.dir)).filter((f) => f.includes('.partial'))).toEqual([]);
  });

  it('never overwrites an existing output, nor the input even when overwriting is allowed', async () => {
    const input = await writeMinimalPdf(join(f.dir, 'keep.pdf'));
    const existing = join(f.dir, 'keep-existing.pdf');
    await writeFile(existing, 'precious');
    await expect(sign(input, existing, f.rsa)).rejects.toBeInstanceOf(OutputExistsError);
    expect(await readFile(existing, 'utf8')).toBe('precious');
    const before = await readFile(input);
    const prepared = await PadesEngine.prepare(input, { certificate: f.rsa.der });
    const signature = await softKeySigner(f.rsa.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await expect(PadesEngine.finish(prepared.state, signature, { outputPath: input, overwrite: true })).rejects.toBeInstanceOf(OutputExistsError);
    expect(await readFile(input)).toEqual(before);
    await PadesEngine.finish(prepared.state, signature, { outputPath: existing, overwrite: true });
    await expectAllValid(existing, 1, false);
  });

  it('with the output path given to prepare, signs the bytes it hashed even if the input changes afterwards', async () => {
    const input = await writeMinimalPdf(join(f.dir, 'staged.pdf'), 'Staged original');
    const out = join(f.dir, 'staged-out.pdf');
    const prepared = await PadesEngine.prepare(input, { certificate: f.ec.der, outputPath: out, outputMode: 0o600 });
    expect((await readdir(f.dir)).filter((f) => f.startsWith('.staged-out.pdf.'))).toHaveLength(1);
    await writeMinimalPdf(input, 'Changed after prepare');
    const signature = await softKeySigner(f.ec.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await expect(PadesEngine.finish(prepared.state, signature, { outputPath: join(f.dir, 'elsewhere.pdf') })).rejects.toBeInstanceOf(TypeError);
    await PadesEngine.finish(prepared.state, signature, { outputPath: out, timestampClient: f.tsa });
    const { pdf } = await expectAllValid(out, 1);
    expect(pdf.toString('latin1')).toContain('Staged original');
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect((await readdir(f.dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('abort drops the staged copy; an existing output is refused already at prepare', async () => {
    const input = await writeMinimalPdf(join(f.dir, 'aborted.pdf'));
    const prepared = await PadesEngine.prepare(input, { certificate: f.rsa.der, outputPath: join(f.dir, 'aborted-out.pdf') });
    await PadesEngine.abort(prepared.state);
    expect((await readdir(f.dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
    await writeFile(join(f.dir, 'aborted-taken.pdf'), 'x');
    await expect(PadesEngine.prepare(input, { certificate: f.rsa.der, outputPath: join(f.dir, 'aborted-taken.pdf') })).rejects.toBeInstanceOf(OutputExistsError);
  });

  it('rejects what is not a PDF', async () => {
    await writeFile(join(f.dir, 'not.pdf'), 'hello');
    await expect(PadesEngine.prepare(join(f.dir, 'not.pdf'), { certificate: f.rsa.der })).rejects.toBeInstanceOf(UnsupportedDocumentError);
    await copyFile(join(f.dir, 'root.pem'), join(f.dir, 'root-copy.pdf'));
    await expect(PadesEngine.prepare(join(f.dir, 'root-copy.pdf'), { certificate: f.rsa.der })).rejects.toBeInstanceOf(UnsupportedDocumentError);
  });
});
